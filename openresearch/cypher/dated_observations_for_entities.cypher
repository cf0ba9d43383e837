// purpose: every observation of some entities (optionally one metric), superseded ones too, with its dates (as_of, source publication, when learned), supersession state, evidence and source: what "as of DATE" comparisons and conflicts decide from (the entity-scoped form of monitor_observations)
// params: entity_ids, metric
// WITH fixes the plan: start from the entities' index, not from a scan of all observations
MATCH (e:Entity) WHERE e.id IN $entity_ids
WITH e
MATCH (e)<-[:OF]-(o:Observation)
WHERE $metric IS NULL OR o.metric = $metric
WITH e, o
MATCH (o)<-[:REPORTS]-(ev:Evidence)-[:FROM]->(s:Source)
// evidence kept with an earlier version of a changed source is history
WHERE s.version_of IS NULL
RETURN o.id AS id, o.key AS key, o.condition_key AS condition_key, o.as_of AS as_of, s.published_at AS published_at,
       ev.extracted_at AS learned_at, o.superseded_by AS superseded_by, e.id AS entity_id, e.name AS entity,
       o.metric AS metric, o.unit AS unit, o.condition AS condition, o.value AS value, o.raw_value AS raw_value,
       o.raw_unit AS raw_unit, ev.id AS evidence_id, ev.quote AS quote, s.id AS source_id, s.url AS url,
       s.domain AS domain, s.title AS title, s.trust AS trust, coalesce(o.role, 'own') AS role
ORDER BY metric, entity, value, id, evidence_id
