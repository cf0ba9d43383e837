// purpose: every current observation with its dates (as_of, source publication, when the graph recorded it), supersession state, evidence and source: what the supersession pass and "as of" reads decide from
// params: -
MATCH (o:Observation)<-[:REPORTS]-(ev:Evidence)-[:FROM]->(s:Source)
// evidence kept with an earlier version of a changed source is history
// a figure a source only reports from someone else never supersedes anything, nor is superseded
WHERE s.version_of IS NULL AND coalesce(o.role, 'own') IN ['own', 'bound']
MATCH (o)-[:OF]->(e:Entity)
RETURN o.id AS id, o.key AS key, o.condition_key AS condition_key, o.as_of AS as_of, s.published_at AS published_at,
       coalesce(o.recorded_at, ev.extracted_at) AS learned_at, o.superseded_by AS superseded_by, e.id AS entity_id, e.name AS entity,
       o.metric AS metric, o.unit AS unit, o.condition AS condition, o.value AS value, o.raw_value AS raw_value,
       o.raw_unit AS raw_unit, ev.id AS evidence_id, ev.quote AS quote, s.id AS source_id, s.url AS url,
       s.domain AS domain, s.title AS title, s.trust AS trust, coalesce(o.role, 'own') AS role
ORDER BY id, evidence_id
