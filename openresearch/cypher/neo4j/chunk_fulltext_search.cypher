// purpose: chunks whose text matches a full-text query (Lucene syntax), best first
// params: query, limit
CALL db.index.fulltext.queryNodes('chunk_text', $query, {limit: $limit}) YIELD node, score
RETURN node.id AS id, node.source_id AS source_id, node.text AS text, node.start AS start, node.end AS end, score
