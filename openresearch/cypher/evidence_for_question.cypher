// purpose: evidence linked to one question (ANSWERS), with source, entities and observations
// params: question_id, limit, sources
// sources: only evidence quoted from these sources (null: from any)
// answer_score: how well the quote answers the question, as the extractor scored it (None: linked without one)
MATCH (q0:Question {id: $question_id})<-[an:ANSWERS]-(ev:Evidence)-[:FROM]->(s:Source)
// a report cites what its sources say now
WHERE s.version_of IS NULL AND ($sources IS NULL OR s.id IN $sources)
// best answers first (the extractor's score; a link without one after those), then in reading order, so the
// limit keeps the same items whatever the ids hash to or the order the items were stored in (a resumed run)
WITH ev, s, an.score AS answer_score
ORDER BY coalesce(answer_score, -1.0) DESC, s.url, ev.start, ev.end, ev.quote
LIMIT $limit
RETURN ev.id AS id, answer_score, ev.quote AS quote, ev.type AS type, ev.start AS start, ev.end AS end,
       ev.summary AS summary, ev.extracted_at AS extracted_at,
       s {.id, .url, .title, .kind, .published_at, .fetched_at, .trust, .version_of} AS source,
       [(ev)-[:MENTIONS]->(e:Entity) | e.name] AS entities,
       [(ev)-[:REPORTS]->(o:Observation)-[:OF]->(oe:Entity) |
         {id: o.id, entity: oe.name, metric: o.metric, value: o.value, unit: o.unit, raw_value: o.raw_value,
          raw_unit: o.raw_unit, condition: o.condition, role: coalesce(o.role, 'own'),
          superseded_by: o.superseded_by}] AS observations,
       [(ev)-[:ANSWERS]->(q:Question) | q.text] AS questions
