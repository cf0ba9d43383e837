// purpose: the current observations of several entities (optionally one metric; a value a newer one superseded is left out), the cells of a metric-by-entity table (with the source's kind, title and fetch time: a first-hand record's figure leads its cell)
// params: entity_ids, metric
// WITH fixes the plan: start from the entities' index, not from a scan of all observations
MATCH (e:Entity) WHERE e.id IN $entity_ids
WITH e
MATCH (e)<-[:OF]-(o:Observation)
WHERE ($metric IS NULL OR o.metric = $metric) AND o.superseded_by IS NULL
WITH e, o
MATCH (o)<-[:REPORTS]-(ev:Evidence)-[:FROM]->(s:Source)
// evidence kept with an earlier version of a changed source is history
WHERE s.version_of IS NULL
RETURN e.id AS entity_id, e.name AS entity, o.metric AS metric, o.value AS value, o.unit AS unit,
       o.condition AS condition, ev.id AS evidence_id, o.superseded_by AS superseded_by,
       coalesce(o.role, 'own') AS role, s.kind AS source_kind, s.title AS source_title, s.fetched_at AS fetched_at
ORDER BY metric, entity, value
