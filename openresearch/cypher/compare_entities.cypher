// purpose: observations of several entities (optionally one metric), the cells of a metric-by-entity table
// params: entity_ids, metric
MATCH (e:Entity) WHERE e.id IN $entity_ids
MATCH (e)<-[:OF]-(o:Observation)<-[:REPORTS]-(ev:Evidence)
WHERE $metric IS NULL OR o.metric = $metric
RETURN e.id AS entity_id, e.name AS entity, o.metric AS metric, o.value AS value, o.unit AS unit,
       o.condition AS condition, ev.id AS evidence_id
ORDER BY metric, entity, value
