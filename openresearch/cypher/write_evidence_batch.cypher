// purpose: idempotently write a batch of evidence with its sources, entities, observations and questions
// params: sources, entities, questions, rows, merge_only, now
// Sources, entities and questions arrive deduplicated per batch (rows.pack_batch), so each is merged once and
// an entity's aliases are set once per batch, not once per mention. Row fields: id, quote, type, start, end,
// summary, s (source id), m (mentioned entity ids), o (observations: id, e entity id, m metric, v value,
// u unit, rv/ru raw value/unit, c condition, ck condition key, a as_of, r role), q (questions: id, score). Row ids are distinct.
// ANSWERS keeps the extractor's score, the best one when the same evidence answers a question twice.
// Evidence not yet stored is CREATEd with its observations and relations, which skips the relation look-ups
// MERGE needs (a third of the statement's time on FalkorDB); stored evidence takes the MERGE branch, so
// writing a batch twice changes nothing. Should a concurrent transaction store the same evidence between the
// look-up and the CREATE (Neo4j; FalkorDB runs one write at a time), the unique constraint rejects the whole
// statement and the caller sends it again with `merge_only` true: a lost race costs time, never a duplicate.
UNWIND $sources AS src
MERGE (s:Source {id: src.id})
  ON CREATE SET s.url = src.url, s.domain = src.domain, s.kind = src.kind, s.created_at = $now,
                s.title = src.title, s.published_at = src.published_at, s.trust = coalesce(src.trust, 0.5)
// a source or an entity seen before is only written when something about it is new: most are not, and an
// unconditional ON MATCH SET rewrote them all (5-10% of the statement's time on FalkorDB)
FOREACH (_ IN CASE WHEN (s.title IS NULL AND src.title IS NOT NULL)
                       OR (s.published_at IS NULL AND src.published_at IS NOT NULL)
                       OR s.trust IS NULL OR (src.trust IS NOT NULL AND src.trust <> s.trust) THEN [1] ELSE [] END |
  SET s.title = coalesce(s.title, src.title), s.published_at = coalesce(s.published_at, src.published_at),
      s.trust = coalesce(src.trust, s.trust, 0.5))
WITH count(*) AS _sources
UNWIND $entities AS ent
MERGE (e:Entity {id: ent.id})
  ON CREATE SET e.name = ent.name, e.key = ent.key, e.type = 'thing', e.aliases = ent.aliases
FOREACH (_ IN CASE WHEN any(a IN ent.aliases WHERE NOT a IN e.aliases) THEN [1] ELSE [] END |
  SET e.aliases = e.aliases + [a IN ent.aliases WHERE NOT a IN e.aliases])
WITH count(*) AS _entities
UNWIND $questions AS qu
MERGE (q:Question {id: qu.id})
  ON CREATE SET q.text = qu.text, q.key = qu.key, q.role = 'background', q.depth = 1, q.keywords = []
WITH count(*) AS _questions
UNWIND $rows AS r
OPTIONAL MATCH (stored:Evidence {id: r.id})
// the same source and offsets with another quote (a page whose text changed since the stored evidence was read
// there): the stored item keeps its quote, and nothing of the new row is hung on it, so no observation ever
// points at a quote that does not hold its value
WITH r, stored IS NULL AND NOT $merge_only AS new,
     stored IS NOT NULL AND r.start IS NOT NULL AND stored.quote <> r.quote AS clash
MATCH (s:Source {id: r.s})
FOREACH (_ IN CASE WHEN new THEN [1] ELSE [] END |
  CREATE (ev:Evidence {id: r.id, quote: r.quote, type: r.type, start: r.start, end: r.end, summary: r.summary,
                       source_id: r.s, extracted_at: $now})-[:FROM]->(s)
  FOREACH (nid IN r.m |
    MERGE (e:Entity {id: nid})
    CREATE (ev)-[:MENTIONS]->(e)
  )
  FOREACH (o IN r.o |
    MERGE (oe:Entity {id: o.e})
    CREATE (ev)-[:REPORTS]->(:Observation {id: o.id, entity_id: o.e, metric: o.m, value: o.v, unit: o.u,
                                           raw_value: o.rv, raw_unit: o.ru, condition: o.c, condition_key: o.ck,
                                           key: o.e + '|' + o.m + '|' + o.u, as_of: o.a,
                                           role: coalesce(o.r, 'own')})-[:OF]->(oe)
  )
  FOREACH (qa IN r.q |
    MERGE (qn:Question {id: qa.id})
    CREATE (ev)-[:ANSWERS {score: qa.score}]->(qn)
  )
)
FOREACH (_ IN CASE WHEN new OR clash THEN [] ELSE [1] END |
  MERGE (ev:Evidence {id: r.id})
    ON CREATE SET ev.quote = r.quote, ev.type = r.type, ev.start = r.start, ev.end = r.end, ev.summary = r.summary,
                  ev.source_id = r.s, ev.extracted_at = $now
  MERGE (ev)-[:FROM]->(s)
  FOREACH (nid IN r.m |
    MERGE (e:Entity {id: nid})
    MERGE (ev)-[:MENTIONS]->(e)
  )
  FOREACH (o IN r.o |
    MERGE (ob:Observation {id: o.id})
      ON CREATE SET ob.entity_id = o.e, ob.metric = o.m, ob.value = o.v, ob.unit = o.u, ob.raw_value = o.rv,
                    ob.raw_unit = o.ru, ob.condition = o.c, ob.condition_key = o.ck,
                    ob.key = o.e + '|' + o.m + '|' + o.u, ob.as_of = o.a,
                    ob.role = coalesce(o.r, 'own')
    MERGE (ev)-[:REPORTS]->(ob)
    MERGE (oe:Entity {id: o.e})
    MERGE (ob)-[:OF]->(oe)
  )
  FOREACH (qa IN r.q |
    MERGE (qn:Question {id: qa.id})
    MERGE (ev)-[an:ANSWERS]->(qn)
    SET an.score = CASE WHEN qa.score IS NOT NULL AND (an.score IS NULL OR qa.score > an.score) THEN qa.score
                        ELSE an.score END
  )
)
