// purpose: evidence whose quote matches a full-text query (RediSearch syntax), best first
// params: query, limit
CALL db.idx.fulltext.queryNodes('Evidence', $query) YIELD node, score
RETURN node.id AS id, score
// ties by the quote and its place, not by the order the items were stored in (a resumed run stores them in
// another order) nor by id (it hashes the source's path)
ORDER BY score DESC, node.quote, node.start
LIMIT $limit
