// purpose: every observation of some entities (optionally one metric), superseded ones and those of kept earlier versions of a source too, with both clocks: when it held (as_of, source publication) and when the graph recorded and retracted it, its supersession state, evidence and source: what "as of DATE" and "known on DATE" comparisons and conflicts decide from (the entity-scoped form of observation_history_all)
// params: entity_ids, metric
// WITH fixes the plan: start from the entities' index, not from a scan of all observations
MATCH (e:Entity) WHERE e.id IN $entity_ids
WITH e
MATCH (e)<-[:OF]-(o:Observation)
WHERE $metric IS NULL OR o.metric = $metric
WITH e, o
MATCH (o)<-[:REPORTS]-(ev:Evidence)-[:FROM]->(s:Source)
// an earlier version's evidence is history: kept, with when it was archived and the date of the version after
// it (what the document said held until then), and whether the document is still there (not deleted)
OPTIONAL MATCH (doc:Source {id: s.version_of})
OPTIONAL MATCH (nxt:Source)-[:PREVIOUS_VERSION]->(s)
RETURN o.id AS id, o.key AS key, o.condition_key AS condition_key, o.as_of AS as_of, s.published_at AS published_at,
       coalesce(o.recorded_at, ev.extracted_at) AS learned_at,
       coalesce(o.retracted_at, s.archived_at) AS retracted_at, s.version_of AS version_of,
       s.version_of IS NULL OR doc IS NOT NULL AS document_kept,
       CASE WHEN s.version_of IS NULL THEN null ELSE coalesce(nxt.published_at, s.archived_at) END AS valid_until,
       o.superseded_by AS superseded_by, e.id AS entity_id, e.name AS entity,
       o.metric AS metric, o.unit AS unit, o.condition AS condition, o.value AS value, o.raw_value AS raw_value,
       o.raw_unit AS raw_unit, ev.id AS evidence_id, ev.quote AS quote, s.id AS source_id, s.url AS url,
       s.domain AS domain, s.title AS title, s.trust AS trust, coalesce(o.role, 'own') AS role
ORDER BY metric, entity, value, id, evidence_id
