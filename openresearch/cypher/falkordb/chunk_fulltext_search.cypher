// purpose: chunks whose text matches a full-text query (RediSearch syntax), best first
// params: query, limit
CALL db.idx.fulltext.queryNodes('Chunk', $query) YIELD node, score
RETURN node.id AS id, node.source_id AS source_id, node.text AS text, node.start AS start, node.end AS end, score
// ties by the chunk's text and place, not by the order chunks were stored in
ORDER BY score DESC, node.text, node.start
LIMIT $limit
