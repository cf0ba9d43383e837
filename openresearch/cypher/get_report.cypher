// purpose: the stored report of a run: the Report model as JSON and its Markdown
// params: run_id
MATCH (:Run {id: $run_id})-[:PRODUCED]->(rep:Report)
RETURN rep.id AS id, rep.report_json AS json, rep.markdown AS markdown, rep.verified AS verified,
       rep.created_at AS created_at
ORDER BY rep.created_at DESC
LIMIT 1
