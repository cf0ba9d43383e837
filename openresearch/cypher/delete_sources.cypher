// purpose: remove sources (and their chunks) whose files were deleted or changed; evidence from them goes too
// params: ids
MATCH (s:Source) WHERE s.id IN $ids
OPTIONAL MATCH (c:Chunk)-[:PART_OF]->(s)
OPTIONAL MATCH (ev:Evidence)-[:FROM]->(s)
OPTIONAL MATCH (ev)-[:REPORTS]->(o:Observation)
DETACH DELETE o, ev, c, s
