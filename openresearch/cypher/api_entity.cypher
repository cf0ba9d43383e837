// purpose: one entity with its aliases, its observations (each with the evidence reporting it) and the sources that mention it
// params: id
MATCH (e:Entity {id: $id})
RETURN e.id AS id, e.name AS name, e.type AS type, coalesce(e.aliases, []) AS aliases,
       [(e)<-[:OF]-(o:Observation)<-[:REPORTS]-(ev:Evidence) |
         {id: o.id, metric: o.metric, value: o.value, unit: o.unit, raw_value: o.raw_value, raw_unit: o.raw_unit,
          condition: o.condition, evidence_id: ev.id}] AS observations,
       [(e)<-[:MENTIONS]-(:Evidence)-[:FROM]->(s:Source) | s {.id, .url, .title, .kind, .published_at, .trust}]
         AS sources
