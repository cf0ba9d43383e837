// purpose: what monitoring runs that never reached a digest (killed, failed) added: the evidence answering their questions first stored since each run started, with its source and whether that source was new then
// params: run_ids
MATCH (r:Run)-[:ASKS]->(:Question)<-[:ANSWERS]-(ev:Evidence)-[:FROM]->(s:Source)
WHERE r.id IN $run_ids AND ev.extracted_at >= r.started_at
RETURN DISTINCT ev.id AS evidence_id, s.id AS source_id, coalesce(s.created_at, 0) >= r.started_at AS new_source
