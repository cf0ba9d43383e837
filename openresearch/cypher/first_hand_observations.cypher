// purpose: the current own figures of the entities (all when entity_ids is null) that a first-hand record (Source.kind 'record') reports a figure of, from every source, with the source's kind and fetch time and the observation's valid time: what first-hand conflicts and labels are decided from
// params: entity_ids
MATCH (rs:Source {kind: 'record'})<-[:FROM]-(:Evidence)-[:REPORTS]->(:Observation)-[:OF]->(e:Entity)
WHERE $entity_ids IS NULL OR e.id IN $entity_ids
WITH DISTINCT e
MATCH (e)<-[:OF]-(o:Observation)<-[:REPORTS]-(ev:Evidence)-[:FROM]->(s:Source)
WHERE s.version_of IS NULL AND o.superseded_by IS NULL AND coalesce(o.role, 'own') IN ['own', 'bound']
RETURN e.id AS entity_id, e.name AS entity, o.metric AS metric, o.unit AS unit, o.condition AS condition,
       o.condition_key AS condition_key, o.value AS value, o.raw_value AS raw_value, o.raw_unit AS raw_unit,
       o.as_of AS as_of, ev.id AS evidence_id, ev.quote AS quote, s.id AS source_id, s.url AS url,
       s.domain AS domain, s.title AS title, s.published_at AS published_at, s.trust AS trust, s.kind AS kind,
       s.fetched_at AS fetched_at
ORDER BY entity_id, metric, evidence_id
