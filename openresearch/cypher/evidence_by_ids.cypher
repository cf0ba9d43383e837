// purpose: full views of evidence items by id (after a full-text or vector hit)
// params: ids
MATCH (ev:Evidence)-[:FROM]->(s:Source)
WHERE ev.id IN $ids
RETURN ev.id AS id, ev.quote AS quote, ev.type AS type, ev.start AS start, ev.end AS end,
       ev.summary AS summary, ev.extracted_at AS extracted_at,
       s {.id, .url, .title, .kind, .published_at, .fetched_at, .trust, .version_of} AS source,
       [(ev)-[:MENTIONS]->(e:Entity) | e.name] AS entities,
       [(ev)-[:REPORTS]->(o:Observation)-[:OF]->(oe:Entity) |
         {id: o.id, entity: oe.name, metric: o.metric, value: o.value, unit: o.unit, raw_value: o.raw_value,
          raw_unit: o.raw_unit, condition: o.condition, role: coalesce(o.role, 'own'),
          superseded_by: o.superseded_by}] AS observations,
       [(ev)-[:ANSWERS]->(q:Question) | q.text] AS questions
