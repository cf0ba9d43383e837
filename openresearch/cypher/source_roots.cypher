// purpose: the local document root each source was indexed from (None: a web page, an import)
// params: ids
MATCH (s:Source) WHERE s.id IN $ids
RETURN s.id AS id, s.root AS root
