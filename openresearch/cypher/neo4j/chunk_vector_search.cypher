// purpose: nearest chunks to a query embedding (score: cosine similarity in [0, 1], higher is closer)
// params: k, embedding
CALL db.index.vector.queryNodes('chunk_embedding', $k, $embedding) YIELD node, score
RETURN node.id AS id, node.source_id AS source_id, node.text AS text, node.start AS start, node.end AS end, score
