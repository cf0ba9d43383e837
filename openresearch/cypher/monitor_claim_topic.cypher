// purpose: take the lease of one topic if it is free, expired or already ours, in one atomic statement
// params: id, owner, now, until, due_only
// The first SET takes the node's write lock (Neo4j); the WHERE after it reads the lease again under that lock,
// so of two workers racing for the topic exactly one sees it free. FalkorDB runs one write at a time.
MATCH (t:Topic {id: $id})
WHERE t.status = 'active' OR NOT $due_only
SET t.lease_lock = coalesce(t.lease_lock, 0) + 1
WITH t
WHERE (t.lease_owner IS NULL OR t.lease_until < $now OR t.lease_owner = $owner)
  AND (NOT $due_only OR t.next_due <= $now)
SET t.lease_owner = $owner, t.lease_until = $until, t.lease_taken = coalesce(t.lease_taken, 0) + 1
RETURN t.id AS id
