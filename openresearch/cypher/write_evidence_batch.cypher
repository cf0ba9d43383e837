// purpose: idempotently write a batch of evidence with its source, entities, observations and question
// params: rows, now
UNWIND $rows AS r
MERGE (s:Source {id: r.source.id})
  ON CREATE SET s.url = r.source.url, s.domain = r.source.domain, s.kind = r.source.kind, s.created_at = $now
SET s.title = coalesce(s.title, r.source.title),
    s.published_at = coalesce(s.published_at, r.source.published_at),
    s.trust = coalesce(r.source.trust, s.trust, 0.5)
MERGE (ev:Evidence {id: r.id})
  ON CREATE SET ev.quote = r.quote, ev.type = r.type, ev.start = r.start, ev.end = r.end,
                ev.summary = r.summary, ev.source_id = r.source.id, ev.extracted_at = $now
MERGE (ev)-[:FROM]->(s)
FOREACH (en IN r.entities |
  MERGE (e:Entity {id: en.id})
    ON CREATE SET e.name = en.name, e.key = en.key, e.type = 'thing', e.aliases = []
  SET e.aliases = CASE WHEN en.alias IN e.aliases THEN e.aliases ELSE e.aliases + en.alias END
  MERGE (ev)-[:MENTIONS]->(e)
)
FOREACH (ob IN r.observations |
  MERGE (oe:Entity {id: ob.entity_id})
    ON CREATE SET oe.name = ob.entity_name, oe.key = ob.entity_key, oe.type = 'thing', oe.aliases = []
  MERGE (o:Observation {id: ob.id})
    ON CREATE SET o.entity_id = ob.entity_id, o.metric = ob.metric, o.value = ob.value, o.unit = ob.unit,
                  o.raw_value = ob.raw_value, o.raw_unit = ob.raw_unit, o.condition = ob.condition,
                  o.condition_key = ob.condition_key, o.key = ob.key, o.as_of = ob.as_of
  MERGE (ev)-[:REPORTS]->(o)
  MERGE (o)-[:OF]->(oe)
)
FOREACH (q IN r.questions |
  MERGE (qn:Question {id: q.id})
    ON CREATE SET qn.text = q.text, qn.key = q.key, qn.role = 'background', qn.depth = 1, qn.keywords = []
  MERGE (ev)-[:ANSWERS]->(qn)
)
