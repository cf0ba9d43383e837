// purpose: remove sources (and their chunks) whose files were deleted; what evidence is still attached goes too (ingest first moves a removed file's evidence to its kept last version, archive_source_version)
// params: ids
MATCH (s:Source) WHERE s.id IN $ids
OPTIONAL MATCH (c:Chunk)-[:PART_OF]->(s)
OPTIONAL MATCH (ev:Evidence)-[:FROM]->(s)
OPTIONAL MATCH (ev)-[:REPORTS]->(o:Observation)
DETACH DELETE o, ev, c, s
