// purpose: one run with its options, plan, metrics and progress counters (JSON strings), and its owner process with its last heartbeat
// params: id
MATCH (r:Run {id: $id})
RETURN r.id AS id, r.question AS question, r.status AS status, r.stage AS stage, r.options AS options,
       r.plan AS plan, r.metrics AS metrics, r.progress AS progress, r.started_at AS started_at,
       r.finished_at AS finished_at, r.owner AS owner, r.heartbeat_at AS heartbeat_at
