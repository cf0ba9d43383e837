// purpose: the ids of every source and evidence item (with the source's url, title, date and content hash), to tell what a monitoring run added, removed or edited
// params: -
MATCH (s:Source)
// the current sources; earlier versions of changed ones are kept apart
WHERE s.version_of IS NULL
OPTIONAL MATCH (ev:Evidence)-[:FROM]->(s)
RETURN s.id AS id, s.url AS url, s.title AS title, s.published_at AS published_at,
       s.content_hash AS content_hash, collect(ev.id) AS evidence
