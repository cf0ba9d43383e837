// purpose: active topics due now whose lease is free or expired, soonest due first (candidates to claim)
// params: now, limit
MATCH (t:Topic)
WHERE t.status = 'active' AND t.next_due <= $now AND (t.lease_owner IS NULL OR t.lease_until < $now)
RETURN t.id AS id
ORDER BY t.next_due, t.id
LIMIT $limit
