// purpose: the ids of every source and evidence item (with the source's url and title), to tell what a monitoring run added or removed
// params: -
MATCH (s:Source)
// the current sources; earlier versions of changed ones are kept apart
WHERE s.version_of IS NULL
OPTIONAL MATCH (ev:Evidence)-[:FROM]->(s)
RETURN s.id AS id, s.url AS url, s.title AS title, s.published_at AS published_at, collect(ev.id) AS evidence
