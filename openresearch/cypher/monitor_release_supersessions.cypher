// purpose: make observations current again that the supersession rule no longer supersedes (their successor left with a deleted document, or was another lineage's value): clear the mark and drop the relations pointing at them
// params: ids
UNWIND $ids AS oid
MATCH (old:Observation {id: oid})
SET old.superseded_by = NULL, old.superseded_at = NULL, old.superseded_late = NULL,
    old.superseded_recorded_at = NULL
WITH old
OPTIONAL MATCH (:Observation)-[x:SUPERSEDES]->(old)
DELETE x
RETURN count(DISTINCT old) AS released
