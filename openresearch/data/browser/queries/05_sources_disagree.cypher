// title: Where two sources disagree
// purpose: pairs of sources on the two sides of a conflict group (the API's rule: values within the tolerance agree, superseded values are history), with the group's resolution if someone gave one; `source` (part of a url or title, '' for all) narrows it to one source
// params: source, tolerance
MATCH (en:Entity)<-[:OF]-(o:Observation)<-[:REPORTS]-(ev:Evidence)-[:FROM]->(s:Source)
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
// stale: resolved, but the group's values are no longer those it was resolved with (review it again)
WITH en, metric, unit, clusters, conditions, res, CASE WHEN res IS NULL THEN 'open' WHEN size(coalesce(res.values, [])) > 0 AND (size(res.values) <> size(clusters) OR any(c IN clusters WHERE none(x IN c WHERE x.value IN res.values))) THEN 'stale' ELSE 'resolved' END AS state
UNWIND range(0, size(clusters) - 2) AS i
UNWIND range(i + 1, size(clusters) - 1) AS j
UNWIND clusters[i] AS a
UNWIND clusters[j] AS b
WITH en, metric, unit, conditions, res, state, a, b
WHERE a.source <> b.source
  AND ($source = '' OR a.url CONTAINS $source OR b.url CONTAINS $source
       OR coalesce(a.title, '') CONTAINS $source OR coalesce(b.title, '') CONTAINS $source)
RETURN a.title AS source_a, a.raw_value AS value_a, a.evidence AS evidence_a,
       b.title AS source_b, b.raw_value AS value_b, b.evidence AS evidence_b,
       en.name AS entity, metric, unit,
       coalesce(reduce(m = null, c IN conditions | CASE WHEN m IS NULL OR c < m THEN c ELSE m END), '') AS condition,
       CASE WHEN res IS NULL THEN 'open' ELSE state + ': ' + res.decision END AS status
ORDER BY entity, metric, condition, source_a, source_b
LIMIT 100
