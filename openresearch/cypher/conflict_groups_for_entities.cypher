// purpose: the observations behind the conflict groups of some entities (optionally for one metric): keys (entity, metric, unit) and normalised conditions whose values differ beyond a relative tolerance (any difference for years and dates), reported by two or more sources; one row per key and condition with all its observations, their evidence and sources
// params: entity_ids, metric, tolerance, limit
// Start from the entities (index): a key holds one entity, so its observations are all reached from it.
MATCH (e:Entity) WHERE e.id IN $entity_ids
WITH e
MATCH (e)<-[:OF]-(o:Observation)
// a value a newer one superseded (monitoring) is history, not a conflict
WHERE ($metric IS NULL OR o.metric = $metric) AND o.superseded_by IS NULL
  // a figure a source only reports from someone else, or a setting of a measurement, is no side of a conflict
  AND coalesce(o.role, 'own') IN ['own', 'bound']
WITH e, o.key AS key, o.condition_key AS ck, o.unit AS unit, min(o.value) AS lo, max(o.value) AS hi,
     collect(o) AS obs
WHERE hi - lo > CASE WHEN unit IN ['year', 'date'] THEN 0.0
                     ELSE $tolerance * CASE WHEN abs(hi) > abs(lo) THEN abs(hi) ELSE abs(lo) END END
UNWIND obs AS o
MATCH (o)<-[:REPORTS]-(ev:Evidence)-[:FROM]->(s:Source)
// evidence kept with an earlier version of a changed source is history
WHERE s.version_of IS NULL
WITH key, ck, count(DISTINCT s.id) AS n,
     collect({entity_id: e.id, entity: e.name, metric: o.metric, unit: o.unit, condition: o.condition,
              condition_key: o.condition_key, value: o.value, raw_value: o.raw_value, raw_unit: o.raw_unit,
              evidence_id: ev.id, quote: ev.quote, source_id: s.id, url: s.url, domain: s.domain,
              title: s.title, published_at: s.published_at, trust: s.trust}) AS rows
WHERE n >= 2
RETURN key, ck, rows
ORDER BY key, ck
LIMIT $limit
