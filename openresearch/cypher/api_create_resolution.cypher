// purpose: store one person's resolution of a conflict group (decision, the value held right, a note, who and when, and the group's values then: a change of them makes it stale), linked ON the group's evidence
// params: id, conflict_id, entity, metric, unit, condition, decision, value, note, author, created_at, evidence_ids, values
MERGE (r:Resolution {id: $id})
  ON CREATE SET r.conflict_id = $conflict_id, r.entity = $entity, r.metric = $metric, r.unit = $unit,
                r.condition = $condition, r.decision = $decision, r.value = $value, r.note = $note,
                r.author = $author, r.created_at = $created_at, r.values = $values
WITH r
UNWIND $evidence_ids AS eid
MATCH (ev:Evidence {id: eid})
MERGE (r)-[:ON]->(ev)
RETURN count(*) AS linked
