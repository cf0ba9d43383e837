// purpose: store one person's feedback (accept or dispute, a note, who and when) on an evidence item or a source, linked ON its target; the source keeps the trust it had before any feedback as base_trust
// params: id, target_kind, target_id, source_id, verdict, note, author, created_at
MATCH (s:Source {id: $source_id})
SET s.base_trust = coalesce(s.base_trust, s.trust, 0.5)
MERGE (f:Feedback {id: $id})
  ON CREATE SET f.target_kind = $target_kind, f.target_id = $target_id, f.source_id = $source_id,
                f.verdict = $verdict, f.comment = $note, f.author = $author, f.created_at = $created_at,
                f.rating = CASE WHEN $verdict = 'accept' THEN 1 ELSE -1 END
WITH f, s
OPTIONAL MATCH (ev:Evidence {id: $target_id})
WITH f, s, CASE WHEN $target_kind = 'evidence' THEN ev ELSE NULL END AS ev
FOREACH (x IN CASE WHEN ev IS NULL THEN [s] ELSE [] END | MERGE (f)-[:ON]->(x))
FOREACH (x IN CASE WHEN ev IS NULL THEN [] ELSE [ev] END | MERGE (f)-[:ON]->(x))
RETURN f.id AS id, s.base_trust AS base_trust
