// purpose: evidence whose quote matches a full-text query (RediSearch syntax), best first
// params: query, limit
CALL db.idx.fulltext.queryNodes('Evidence', $query) YIELD node, score
RETURN node.id AS id, score
ORDER BY score DESC
LIMIT $limit
