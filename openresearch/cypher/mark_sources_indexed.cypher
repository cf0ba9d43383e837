// purpose: the completion marker of indexing, written after a source's chunks and embeddings: its content hash
// params: rows
UNWIND $rows AS r
MATCH (s:Source {id: r.id})
SET s.content_hash = r.content_hash
