// purpose: a page of entities whose name, key or an alias contains a (lower-case) text, in id order after a cursor
// params: q, after, limit
MATCH (e:Entity)
WHERE e.id > $after
  AND ($q = '' OR e.key CONTAINS $q OR toLower(e.name) CONTAINS $q
       OR any(a IN coalesce(e.aliases, []) WHERE toLower(a) CONTAINS $q))
RETURN e.id AS id, e.name AS name, e.type AS type, coalesce(e.aliases, []) AS aliases,
       size([(e)<-[:MENTIONS]-(ev:Evidence) | ev.id]) AS evidence
ORDER BY id
LIMIT $limit
