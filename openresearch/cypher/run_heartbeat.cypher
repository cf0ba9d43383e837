// purpose: the owner of queued or running runs says it is still alive (only runs it owns)
// params: ids, owner, now
MATCH (r:Run)
WHERE r.id IN $ids AND r.owner = $owner
SET r.heartbeat_at = $now
