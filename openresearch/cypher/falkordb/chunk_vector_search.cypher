// purpose: nearest chunks to a query embedding (FalkorDB returns cosine distance; mapped to Neo4j's [0, 1] similarity)
// params: k, embedding
CALL db.idx.vector.queryNodes('Chunk', 'embedding', $k, vecf32($embedding)) YIELD node, score
RETURN node.id AS id, node.source_id AS source_id, node.text AS text, node.start AS start, node.end AS end,
       1.0 - score / 2.0 AS score
ORDER BY score DESC
