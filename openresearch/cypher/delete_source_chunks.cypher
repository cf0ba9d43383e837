// purpose: remove the chunks of sources stored only in part (an earlier index was cut off): they are redone, while the source, its id scope, its versions and any evidence stay
// params: ids
MATCH (c:Chunk)-[:PART_OF]->(s:Source) WHERE s.id IN $ids
DETACH DELETE c
