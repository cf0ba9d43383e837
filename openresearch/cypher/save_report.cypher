// purpose: store a run's report and its sections; each section CITES the (existing) evidence it uses
// params: run_id, report_id, title, created_at, markdown, verified, json, sections
MATCH (run:Run {id: $run_id})
MERGE (rep:Report {id: $report_id})
SET rep.run_id = $run_id, rep.title = $title, rep.created_at = $created_at, rep.markdown = $markdown,
    rep.verified = $verified, rep.report_json = $json
MERGE (run)-[:PRODUCED]->(rep)
WITH rep
UNWIND $sections AS sec
MERGE (s:Section {id: sec.id})
SET s.title = sec.title, s.position = sec.position, s.text = sec.text
MERGE (rep)-[:HAS_SECTION]->(s)
WITH s, sec
UNWIND sec.cites AS eid
MATCH (ev:Evidence {id: eid})
MERGE (s)-[:CITES]->(ev)
