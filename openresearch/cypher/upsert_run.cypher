// purpose: create or update a research run (status, stage, options, plan and progress counters as JSON strings, and the process that owns it with the time it last said so)
// params: id, question, status, stage, options, plan, started_at, finished_at, metrics, progress, owner, heartbeat_at
MERGE (r:Run {id: $id})
  ON CREATE SET r.question = $question, r.started_at = $started_at
SET r.status = $status, r.stage = $stage, r.options = $options, r.plan = coalesce($plan, r.plan),
    r.finished_at = $finished_at, r.metrics = coalesce($metrics, r.metrics),
    r.progress = coalesce($progress, r.progress), r.owner = $owner, r.heartbeat_at = $heartbeat_at
