// purpose: the monitor's clock on what a run added: when the graph recorded the observations of new evidence (kept on a re-run)
// params: ids, now
UNWIND $ids AS eid
MATCH (:Evidence {id: eid})-[:REPORTS]->(o:Observation)
SET o.recorded_at = coalesce(o.recorded_at, $now)
RETURN count(o) AS stamped
