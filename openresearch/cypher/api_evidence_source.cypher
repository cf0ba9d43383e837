// purpose: the source an evidence item came from (feedback on the item weighs on its source)
// params: id
MATCH (ev:Evidence {id: $id})-[:FROM]->(s:Source)
RETURN s.id AS source_id
