// purpose: store a digest linked to its topic, its run and every evidence item it cites (idempotent by id)
// params: id, topic_id, run_id, at, nothing_changed, data, markdown, evidence_ids
MERGE (d:Digest {id: $id})
SET d.topic_id = $topic_id, d.run_id = $run_id, d.at = $at, d.nothing_changed = $nothing_changed, d.data = $data,
    d.markdown = $markdown
WITH d
OPTIONAL MATCH (t:Topic {id: $topic_id})
FOREACH (_ IN CASE WHEN t IS NULL THEN [] ELSE [1] END | MERGE (t)-[:HAS_DIGEST]->(d))
WITH d
OPTIONAL MATCH (r:Run {id: $run_id})
FOREACH (_ IN CASE WHEN r IS NULL THEN [] ELSE [1] END | MERGE (d)-[:OF_RUN]->(r))
WITH d
UNWIND $evidence_ids AS eid
MATCH (ev:Evidence {id: eid})
MERGE (d)-[:CITES]->(ev)
RETURN count(*) AS cited
