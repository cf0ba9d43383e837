// purpose: active topics due now whose unexpired lease a process on this host holds (`here`: "host:"): those whose process is gone are taken over at once
// params: now, here, limit
MATCH (t:Topic)
WHERE t.status = 'active' AND t.next_due <= $now AND t.lease_until >= $now AND t.lease_owner STARTS WITH $here
RETURN t.id AS id, t.lease_owner AS owner
ORDER BY t.next_due, t.id
LIMIT $limit
