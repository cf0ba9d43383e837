// purpose: the feedback given on some evidence items or sources, oldest first
// params: ids
MATCH (f:Feedback)
WHERE f.target_id IN $ids
RETURN f.id AS id, f.target_kind AS target_kind, f.target_id AS target_id, f.source_id AS source_id,
       f.verdict AS verdict, f.comment AS note, f.author AS author, f.created_at AS created_at
ORDER BY created_at, id
