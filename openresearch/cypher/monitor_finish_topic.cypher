// purpose: record a finished monitoring run on its topic (next due time, run link) and release our lease
// params: id, owner, run_id, now, next_due
MATCH (t:Topic {id: $id})
WHERE t.lease_owner = $owner
SET t.last_run_at = $now, t.last_run_id = $run_id, t.runs = coalesce(t.runs, 0) + 1, t.next_due = $next_due,
    t.lease_owner = null, t.lease_until = null, t.undigested = []
WITH t
OPTIONAL MATCH (r:Run {id: $run_id})
FOREACH (_ IN CASE WHEN r IS NULL THEN [] ELSE [1] END | MERGE (t)-[:TRACKS]->(r))
RETURN t.id AS id
