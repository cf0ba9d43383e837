// purpose: every watched topic, soonest due first
// params: limit
MATCH (t:Topic)
WHERE t.question IS NOT NULL
RETURN t {.*} AS topic
ORDER BY t.next_due, t.id
LIMIT $limit
