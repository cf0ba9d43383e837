// purpose: the resolutions of some conflict groups (all of them when conflict_ids is null), oldest first
// params: conflict_ids
MATCH (r:Resolution)
WHERE $conflict_ids IS NULL OR r.conflict_id IN $conflict_ids
RETURN r.id AS id, r.conflict_id AS conflict_id, r.entity AS entity, r.metric AS metric, r.unit AS unit,
       r.condition AS condition, r.decision AS decision, r.value AS value, r.note AS note, r.author AS author,
       r.created_at AS created_at, r.values AS values
ORDER BY created_at, id
