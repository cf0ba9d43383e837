// purpose: note on a topic, under our lease, a monitoring run that has started and not yet reached a digest
// params: id, owner, run_id
MATCH (t:Topic {id: $id})
WHERE t.lease_owner = $owner
SET t.undigested = [x IN coalesce(t.undigested, []) WHERE x <> $run_id] + [$run_id]
RETURN t.id AS id
