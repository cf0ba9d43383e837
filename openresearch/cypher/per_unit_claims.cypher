// purpose: the observations behind every implied-ratio check: relative claims and per-unit figures (the metrics given), current ones only, with their evidence and sources (which claims the figures contradict is decided in implied_conflicts.py)
// params: metrics, limit
MATCH (o:Observation)
// a value a newer one superseded (monitoring) is history, not a claim
WHERE o.metric IN $metrics AND o.superseded_by IS NULL
MATCH (o)<-[:REPORTS]-(ev:Evidence)-[:FROM]->(s:Source)
// evidence kept with an earlier version of a changed source is history
WHERE s.version_of IS NULL
MATCH (o)-[:OF]->(e:Entity)
RETURN {entity_id: e.id, entity: e.name, metric: o.metric, unit: o.unit, condition: o.condition,
        condition_key: o.condition_key, value: o.value, raw_value: o.raw_value, raw_unit: o.raw_unit,
        evidence_id: ev.id, quote: ev.quote, source_id: s.id, url: s.url, domain: s.domain,
        title: s.title, published_at: s.published_at, trust: s.trust} AS row
ORDER BY row.entity_id, row.metric, row.evidence_id
LIMIT $limit
