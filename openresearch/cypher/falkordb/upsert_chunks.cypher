// purpose: store chunks of a source with offsets and embeddings (vecf32 so the vector index sees them)
// params: rows
UNWIND $rows AS r
MATCH (s:Source {id: r.source_id})
MERGE (c:Chunk {id: r.id})
SET c.source_id = r.source_id, c.text = r.text, c.start = r.start, c.end = r.end, c.embedding = vecf32(r.embedding)
MERGE (c)-[:PART_OF]->(s)
