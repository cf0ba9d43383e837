// purpose: every conflict in the graph (optionally for one metric): same entity, metric and unit, the same conditions after normalisation, different sources, values beyond a relative tolerance
// params: metric, tolerance, limit
MATCH (o1:Observation)
WHERE $metric IS NULL OR o1.metric = $metric
WITH o1
MATCH (o2:Observation {key: o1.key})
// compared through an alias: FalkorDB would otherwise turn `o1.id < o2.id` into an id-range index scan
WITH o1, o2, o2.id AS id2
WHERE o1.id < id2
  AND o1.condition_key = o2.condition_key
  AND abs(o1.value - o2.value) > $tolerance *
      CASE WHEN abs(o1.value) > abs(o2.value) THEN abs(o1.value) ELSE abs(o2.value) END
WITH o1, o2
MATCH (o1)<-[:REPORTS]-(ev1:Evidence)-[:FROM]->(s1:Source)
MATCH (o2)<-[:REPORTS]-(ev2:Evidence)-[:FROM]->(s2:Source)
WHERE s1.id <> s2.id
MATCH (o1)-[:OF]->(e:Entity)
WITH e, o1, o2, ev1, ev2, s1, s2
ORDER BY e.name, o1.metric, ev1.id, ev2.id
LIMIT $limit
RETURN e.name AS entity, o1.metric AS metric, o1.unit AS unit,
       {evidence_id: ev1.id, source_id: s1.id, source_url: s1.url, value: o1.value, raw_value: o1.raw_value,
        raw_unit: o1.raw_unit, unit: o1.unit, condition: o1.condition, quote: ev1.quote} AS a,
       {evidence_id: ev2.id, source_id: s2.id, source_url: s2.url, value: o2.value, raw_value: o2.raw_value,
        raw_unit: o2.raw_unit, unit: o2.unit, condition: o2.condition, quote: ev2.quote} AS b
