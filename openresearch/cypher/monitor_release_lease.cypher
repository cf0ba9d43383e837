// purpose: give a topic's lease back without a finished run (a failed run is retried at next_due)
// params: id, owner, next_due
MATCH (t:Topic {id: $id})
WHERE t.lease_owner = $owner
SET t.lease_owner = null, t.lease_until = null, t.next_due = $next_due
RETURN t.id AS id
