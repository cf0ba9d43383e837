// title: Recent runs
// purpose: the latest research runs with their ids, to pick one for the queries below
// params:
MATCH (r:Run)
RETURN r.id AS run_id, r.question AS question, r.status AS status, r.stage AS stage, r.started_at AS started_at
ORDER BY r.started_at DESC
LIMIT 25
