// purpose: mark older observations superseded by newer ones of the same key and condition (both kept; the relation points from the successor to the value it replaced)
// params: rows, now
UNWIND $rows AS r
MATCH (old:Observation {id: r.old})
MATCH (new:Observation {id: r.new})
SET old.superseded_by = r.new, old.superseded_at = r.at, old.superseded_late = r.late,
    old.superseded_recorded_at = $now
MERGE (new)-[s:SUPERSEDES]->(old)
  ON CREATE SET s.at = r.at, s.late = r.late, s.recorded_at = $now
RETURN count(*) AS written
