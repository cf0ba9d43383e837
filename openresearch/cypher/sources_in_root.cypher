// purpose: sources indexed from one local document root, with their content hashes (for incremental re-indexing)
// params: root
MATCH (s:Source {root: $root})
RETURN s.id AS id, s.url AS url, s.content_hash AS content_hash
