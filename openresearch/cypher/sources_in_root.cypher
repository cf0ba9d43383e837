// purpose: sources indexed from one local document root, with their content hashes, dates and stored chunk counts (a source with no hash, or fewer chunks than its text gives, was cut off mid-index)
// params: root
MATCH (s:Source {root: $root})
RETURN s.id AS id, s.url AS url, s.content_hash AS content_hash, s.published_at AS published_at, size([(c:Chunk)-[:PART_OF]->(s) | c]) AS chunks
