// purpose: store chunks of a source with offsets and embeddings, linked PART_OF their source
// params: rows
UNWIND $rows AS r
MATCH (s:Source {id: r.source_id})
MERGE (c:Chunk {id: r.id})
SET c.source_id = r.source_id, c.text = r.text, c.start = r.start, c.end = r.end, c.embedding = r.embedding
MERGE (c)-[:PART_OF]->(s)
