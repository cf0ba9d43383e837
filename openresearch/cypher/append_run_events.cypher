// purpose: persist run events, idempotent by run id and sequence number; each hangs off its run
// params: run_id, rows
// each row: id, seq, type, at, data (the event as JSON)
MATCH (r:Run {id: $run_id})
UNWIND $rows AS row
MERGE (e:RunEvent {id: row.id})
SET e.run_id = $run_id, e.seq = row.seq, e.type = row.type, e.at = row.at, e.data = row.data
MERGE (r)-[:EMITTED]->(e)
