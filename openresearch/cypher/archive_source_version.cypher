// purpose: keep the stored version of a source whose text changed: a Source node of its own (the old text, hash and dates, `version_of` the source) that the evidence read from it moves to, linked PREVIOUS_VERSION from the source (older versions chained behind it); the source's chunks go (they point into the old text) and so does what sub-questions examined of it, its hash is cleared until the new text is stored whole, and it takes the id scope of its new version's evidence. One statement: a kill leaves the source either as it was or archived.
// params: id, version_id, scope, now
MATCH (s:Source {id: $id}) WHERE s.content_hash IS NOT NULL
MERGE (v:Source {id: $version_id})
SET v.url = s.url, v.domain = s.domain, v.kind = s.kind, v.title = s.title, v.published_at = s.published_at,
    v.fetched_at = s.fetched_at, v.content_hash = s.content_hash, v.trust = s.trust, v.text = s.text,
    v.headers = s.headers, v.pages = s.pages, v.created_at = s.created_at, v.version_of = s.id,
    v.archived_at = $now, v.evidence_scope = s.evidence_scope,
    s.content_hash = NULL, s.evidence_scope = $scope
WITH s, v
OPTIONAL MATCH (s)-[p:PREVIOUS_VERSION]->(older:Source)
WITH s, v, [x IN collect(older) WHERE x.id <> v.id] AS olders, collect(p) AS links
FOREACH (o IN olders | MERGE (v)-[:PREVIOUS_VERSION]->(o))
FOREACH (r IN links | DELETE r)
MERGE (s)-[:PREVIOUS_VERSION]->(v)
WITH s, v
OPTIONAL MATCH (ev:Evidence)-[f:FROM]->(s)
WITH s, v, collect(ev) AS evs, collect(f) AS froms
FOREACH (e IN evs | MERGE (e)-[:FROM]->(v) SET e.source_id = v.id)
FOREACH (r IN froms | DELETE r)
WITH s, v, size(evs) AS moved
// what a sub-question examined was the old text: the new one is read again
OPTIONAL MATCH (q:Question)-[x:EXAMINED]->(s)
WITH s, v, moved, collect(q) AS qs, collect(x) AS seen
FOREACH (q IN qs | MERGE (q)-[:EXAMINED]->(v))
FOREACH (r IN seen | DELETE r)
WITH s, moved
OPTIONAL MATCH (c:Chunk)-[:PART_OF]->(s)
WITH moved, collect(c) AS chunks
FOREACH (c IN chunks | DETACH DELETE c)
RETURN moved, size(chunks) AS chunks
