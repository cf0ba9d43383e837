// purpose: what a source's next version must not be named: its current evidence scope and the ids of the versions kept behind it
// params: ids
MATCH (s:Source) WHERE s.id IN $ids
OPTIONAL MATCH (s)-[:PREVIOUS_VERSION*1..]->(v:Source)
RETURN s.id AS id, s.evidence_scope AS scope, collect(DISTINCT v.id) AS versions
