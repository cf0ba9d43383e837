// purpose: the highest event sequence number of a run (0 when it has none): a resumed run numbers on from it
// params: run_id
OPTIONAL MATCH (e:RunEvent {run_id: $run_id})
RETURN coalesce(max(e.seq), 0) AS seq
