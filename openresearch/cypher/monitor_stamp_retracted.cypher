// purpose: the monitor's clock on what a run took away: when the graph stopped holding the observations of evidence that left the current sources (an edited document's previous version, a deleted one; kept on a re-run)
// params: ids, now
UNWIND $ids AS eid
MATCH (:Evidence {id: eid})-[:REPORTS]->(o:Observation)
SET o.retracted_at = coalesce(o.retracted_at, $now)
RETURN count(o) AS stamped
