// purpose: where one evidence item came from: source, fetch time, questions and the runs that asked them
// params: id
MATCH (ev:Evidence {id: $id})-[:FROM]->(s:Source)
OPTIONAL MATCH (ev)-[:ANSWERS]->(q:Question)<-[:ASKS]-(run:Run)
WITH ev, s, collect(DISTINCT run.id) AS runs
RETURN ev.id AS id, ev.quote AS quote, ev.type AS type, ev.start AS start, ev.end AS end,
       ev.summary AS summary, ev.extracted_at AS extracted_at,
       s {.id, .url, .title, .kind, .published_at, .fetched_at, .trust} AS source,
       [(ev)-[:MENTIONS]->(e:Entity) | e.name] AS entities,
       [(ev)-[:REPORTS]->(o:Observation)-[:OF]->(oe:Entity) |
         {id: o.id, entity: oe.name, metric: o.metric, value: o.value, unit: o.unit, raw_value: o.raw_value,
          raw_unit: o.raw_unit, condition: o.condition, role: coalesce(o.role, 'own')}] AS observations,
       [(ev)-[:ANSWERS]->(q:Question) | q.text] AS questions,
       runs
