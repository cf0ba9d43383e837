// purpose: a page of the evidence that mentions some entities, in id order after a cursor, as full views
// params: entity_ids, after, limit
MATCH (e:Entity) WHERE e.id IN $entity_ids
WITH e
MATCH (e)<-[:MENTIONS]-(ev:Evidence)
WHERE ev.id > $after
WITH DISTINCT ev
ORDER BY ev.id
LIMIT $limit
MATCH (ev)-[:FROM]->(s:Source)
RETURN ev.id AS id, ev.quote AS quote, ev.type AS type, ev.start AS start, ev.end AS end,
       ev.summary AS summary, ev.extracted_at AS extracted_at,
       s {.id, .url, .title, .kind, .published_at, .fetched_at, .trust} AS source,
       [(ev)-[:MENTIONS]->(m:Entity) | m.name] AS entities,
       [(ev)-[:REPORTS]->(o:Observation)-[:OF]->(oe:Entity) |
         {id: o.id, entity: oe.name, metric: o.metric, value: o.value, unit: o.unit, raw_value: o.raw_value,
          raw_unit: o.raw_unit, condition: o.condition, role: coalesce(o.role, 'own')}] AS observations,
       [(ev)-[:ANSWERS]->(q:Question) | q.text] AS questions
ORDER BY id
