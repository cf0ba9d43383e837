// purpose: the observations behind the disputed-condition groups of some entities (optionally for one metric): keys (entity, metric, unit) whose observations state two or more different conditions, from two or more sources; one row per key with its observations (a figure stated without a condition is the flat side of a qualified one), their evidence and sources (which of them give the same figure under a different set-up is decided in condition_conflicts.py)
// params: entity_ids, metric, limit
// Start from the entities (index): a key holds one entity, so its observations are all reached from it.
MATCH (e:Entity) WHERE e.id IN $entity_ids
WITH e
MATCH (e)<-[:OF]-(o:Observation)
// a value a newer one superseded (monitoring) is history, not a dispute
WHERE ($metric IS NULL OR o.metric = $metric) AND o.superseded_by IS NULL
  // a figure a source only reports from someone else, or a setting of a measurement, is no side of a conflict
  AND coalesce(o.role, 'own') IN ['own', 'bound']
  AND NOT o.unit IN ['year', 'date']
WITH e, o.key AS key, count(DISTINCT o.condition_key) AS conditions, collect(o) AS obs
WHERE conditions >= 2
UNWIND obs AS o
MATCH (o)<-[:REPORTS]-(ev:Evidence)-[:FROM]->(s:Source)
// evidence kept with an earlier version of a changed source is history
WHERE s.version_of IS NULL
WITH key, count(DISTINCT s.id) AS n,
     collect({entity_id: e.id, entity: e.name, metric: o.metric, unit: o.unit, condition: o.condition,
              condition_key: o.condition_key, value: o.value, raw_value: o.raw_value, raw_unit: o.raw_unit,
              evidence_id: ev.id, quote: ev.quote, source_id: s.id, url: s.url, domain: s.domain,
              title: s.title, published_at: s.published_at, trust: s.trust}) AS rows
WHERE n >= 2
RETURN key, rows
ORDER BY key
LIMIT $limit
