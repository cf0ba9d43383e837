// title: An entity's observations
// purpose: the current values the graph holds for one entity (a name or alias, any case, resolved as the API resolves it: not a superseded value, not an earlier version of an edited document), the evidence reporting it and its source; the slide after this one groups the values that conflict
// params: entity, aliases
WITH reduce(k = toLower($entity), c IN ['!', '"', '#', '$', '%', '&', '\'', '(', ')', '*', '+', ',', '-', '.', '/', ':', ';', '<', '=', '>', '?', '@', '[', '\\', ']', '^', '_', '`', '{', '|', '}', '~', ' ', '\t', '\n', '\r', '，', '。', '、', '：', '；', '（', '）', '「', '」', '『', '』', '“', '”', '‘', '’', '·', '—', '–', '《', '》', '【', '】', '！', '？'] | replace(k, c, '')) AS folded
// the name folded as the API folds it (case, spaces, punctuation), then the alias list ($aliases: pairs of a
// folded name and its folded canonical name, set by the guide's :param block)
// (the key is worked out before the MATCH: FalkorDB 4.16 crashes on a list comprehension in an indexed lookup)
WITH coalesce(head([a IN $aliases WHERE a[0] = folded | a[1]]), folded) AS key
MATCH (en:Entity {key: key})
MATCH p = (en)<-[:OF]-(o:Observation)<-[:REPORTS]-(ev:Evidence)-[:FROM]->(s:Source)
// current reads are current: history is in GET /compare?superseded=true and as_of / known_on
WHERE o.superseded_by IS NULL AND s.version_of IS NULL
RETURN p
LIMIT 300
