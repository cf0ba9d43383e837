// title: An entity's conflicts
// purpose: the conflict groups of one entity (a name or alias, any case) by the API's rule, as GET /conflicts?entity= gives them: one row per entity, metric, unit and condition with each value (values within the tolerance are one), its evidence and sources, and whether someone resolved it (stale: before its values changed)
// params: entity, aliases, tolerance
WITH reduce(k = toLower($entity), c IN ['!', '"', '#', '$', '%', '&', '\'', '(', ')', '*', '+', ',', '-', '.', '/', ':', ';', '<', '=', '>', '?', '@', '[', '\\', ']', '^', '_', '`', '{', '|', '}', '~', ' ', '\t', '\n', '\r', '，', '。', '、', '：', '；', '（', '）', '「', '」', '『', '』', '“', '”', '‘', '’', '·', '—', '–', '《', '》', '【', '】', '！', '？'] | replace(k, c, '')) AS folded
// the name folded as the API folds it (case, spaces, punctuation), then the alias list ($aliases: pairs of a
// folded name and its folded canonical name, set by the guide's :param block)
// (the key is worked out before the MATCH: FalkorDB 4.16 crashes on a list comprehension in an indexed lookup)
WITH coalesce(head([a IN $aliases WHERE a[0] = folded | a[1]]), folded) AS key
MATCH (en:Entity {key: key})
MATCH (en)<-[:OF]-(o:Observation)<-[:REPORTS]-(ev:Evidence)-[:FROM]->(s:Source)
// the API's conflict rule (conflicts.py): current values only (not superseded, not from an earlier version of a
// source), a source's own figures or bounds, a metric that names a quantity; one key per entity, metric, unit
// and normalised condition, its values clustered within $tolerance of each cluster's smallest (any difference
// for years and dates), at least two sources, a quote giving values of two clusters left out
WHERE o.superseded_by IS NULL AND coalesce(o.role, 'own') IN ['own', 'bound'] AND s.version_of IS NULL
  AND NOT o.metric IN ['percentage', 'percent', 'size', 'count', 'port', 'storage', 'number', 'value', 'duration', 'amount', 'quantity', 'ratio', 'total', '大小', '数量', '百分比', '比例']
WITH en, o, ev, s
ORDER BY o.value, s.id, ev.id
WITH en, o.metric AS metric, o.unit AS unit, o.condition_key AS ck, count(DISTINCT s.id) AS n,
     collect({value: o.value, raw: trim(o.raw_value + ' ' + coalesce(o.raw_unit, '')), raw_value: o.raw_value,
              condition: o.condition, evidence: ev.id, source: s.id, url: s.url, title: s.title}) AS obs
WHERE n >= 2
WITH en, metric, unit, ck, obs, CASE WHEN unit IN ['year', 'date'] THEN 0.0 ELSE $tolerance END AS tol
WITH en, metric, unit, ck, obs, reduce(cs = [], x IN obs |
       CASE WHEN size(cs) > 0 AND abs(x.value - cs[size(cs) - 1][0].value) <= tol *
                 CASE WHEN abs(x.value) > abs(cs[size(cs) - 1][0].value) THEN abs(x.value)
                      ELSE abs(cs[size(cs) - 1][0].value) END
            THEN cs[0..size(cs) - 1] + [cs[size(cs) - 1] + [x]]
            ELSE cs + [[x]] END) AS clustered
WITH en, metric, unit, ck, obs, [c IN clustered | [x IN c | x.evidence]] AS ce, clustered
WITH en, metric, unit, ck, obs,
     [c IN [c IN clustered | [x IN c WHERE size([d IN ce WHERE x.evidence IN d]) = 1]] WHERE size(c) > 0] AS clusters
WITH en, metric, unit, ck, obs, clusters,
     [c IN clusters | reduce(u = [], x IN c | CASE WHEN x.source IN u THEN u ELSE u + [x.source] END)] AS srcs
WHERE size(clusters) >= 2 AND any(i IN range(0, size(srcs) - 2) WHERE any(j IN range(i + 1, size(srcs) - 1)
      WHERE size(srcs[i]) > 1 OR size(srcs[i]) <> size(srcs[j]) OR any(x IN srcs[i] WHERE NOT x IN srcs[j])))
// a person's latest resolution of the group (linked ON its evidence), as GET /conflicts shows it
WITH en, metric, unit, clusters, [x IN obs WHERE x.condition <> '' | x.condition] AS conditions,
     reduce(a = [], c IN clusters | a + [x IN c | x.evidence]) AS eids
OPTIONAL MATCH (r:Resolution)-[:ON]->(rev:Evidence)
WHERE rev.id IN eids AND r.entity = en.name AND r.metric = metric AND r.unit = unit
WITH en, metric, unit, clusters, conditions, r
ORDER BY r.created_at DESC, r.id DESC
WITH en, metric, unit, clusters, conditions, collect(r)[0] AS res
RETURN en.name AS entity, metric, unit, coalesce(reduce(m = null, c IN conditions | CASE WHEN m IS NULL OR c < m THEN c ELSE m END), '') AS condition,
       [c IN clusters | {values: reduce(u = [], x IN c | CASE WHEN x.raw IN u THEN u ELSE u + [x.raw] END),
                         evidence: [x IN c | x.evidence],
                         sources: reduce(u = [], x IN c | CASE WHEN coalesce(x.title, x.url) IN u THEN u
                                                              ELSE u + [coalesce(x.title, x.url)] END)}] AS values,
       // stale: resolved, but the group's values are no longer those it was resolved with (review it again)
       CASE WHEN res IS NULL THEN 'open' WHEN size(coalesce(res.values, [])) > 0 AND (size(res.values) <> size(clusters) OR any(c IN clusters WHERE none(x IN c WHERE x.value IN res.values))) THEN 'stale' ELSE 'resolved' END AS status,
       CASE WHEN res IS NULL THEN null ELSE {decision: res.decision, value: res.value, author: res.author,
                                              note: res.note} END AS resolution
ORDER BY entity, metric, condition
LIMIT 100
