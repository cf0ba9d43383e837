// purpose: recent runs, newest first
// params: limit
MATCH (r:Run)
RETURN r.id AS id, r.question AS question, r.status AS status, r.stage AS stage, r.started_at AS started_at,
       r.finished_at AS finished_at
ORDER BY r.started_at DESC
LIMIT $limit
