// purpose: a run's events after a sequence number, in order (an event stream's replay)
// params: run_id, after, limit
MATCH (e:RunEvent {run_id: $run_id})
WHERE e.seq > $after
RETURN e.seq AS seq, e.at AS at, e.data AS data
ORDER BY e.seq
LIMIT $limit
