// purpose: stored sources (with text) by id, so quotes are checked against exactly what was read
// params: ids
MATCH (s:Source) WHERE s.id IN $ids
RETURN s.id AS id, s.url AS url, s.title AS title, s.kind AS kind, s.published_at AS published_at,
       s.fetched_at AS fetched_at, s.content_hash AS content_hash, s.trust AS trust, s.text AS text, s.pages AS pages,
       s.evidence_scope AS evidence_scope
