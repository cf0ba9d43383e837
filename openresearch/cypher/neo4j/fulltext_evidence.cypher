// purpose: evidence whose quote matches a full-text query (Lucene syntax), best first
// params: query, limit
CALL db.index.fulltext.queryNodes('evidence_quote', $query, {limit: $limit}) YIELD node, score
RETURN node.id AS id, score
