// title: Where two sources disagree
// purpose: every pair of sources giving different values for the same entity, metric, unit and condition; `source` (part of a url or title, '' for all) narrows it to one source
// params: source
MATCH (s1:Source)<-[:FROM]-(e1:Evidence)-[:REPORTS]->(o1:Observation)-[:OF]->(en:Entity)
MATCH (en)<-[:OF]-(o2:Observation)<-[:REPORTS]-(e2:Evidence)-[:FROM]->(s2:Source)
WHERE o1.key = o2.key AND o1.condition_key = o2.condition_key AND o1.value < o2.value AND s1 <> s2
  AND ($source = '' OR s1.url CONTAINS $source OR s2.url CONTAINS $source
       OR coalesce(s1.title, '') CONTAINS $source OR coalesce(s2.title, '') CONTAINS $source)
RETURN s1.title AS source_a, o1.raw_value AS value_a, e1.id AS evidence_a,
       s2.title AS source_b, o2.raw_value AS value_b, e2.id AS evidence_b,
       en.name AS entity, o1.metric AS metric, o1.condition AS condition
ORDER BY entity, metric
LIMIT 100
