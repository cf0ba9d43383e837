// purpose: store fetched or local sources with their exact normalised text, hash, headers and fetch time
// params: rows
UNWIND $rows AS r
MERGE (s:Source {id: r.id})
SET s.url = r.url, s.domain = r.domain, s.kind = r.kind, s.title = r.title, s.published_at = r.published_at,
    s.fetched_at = r.fetched_at, s.content_hash = r.content_hash, s.trust = r.trust, s.text = r.text,
    s.headers = r.headers, s.pages = r.pages, s.root = r.root
