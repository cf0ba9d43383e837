// purpose: the feedback counts that weigh on one source (on the source itself or on its evidence) and its base trust
// params: source_id
MATCH (s:Source {id: $source_id})
OPTIONAL MATCH (f:Feedback {source_id: $source_id})
RETURN coalesce(s.base_trust, s.trust, 0.5) AS base_trust,
       sum(CASE WHEN f.target_kind = 'source' AND f.verdict = 'dispute' THEN 1 ELSE 0 END) AS source_disputes,
       sum(CASE WHEN f.target_kind = 'source' AND f.verdict = 'accept' THEN 1 ELSE 0 END) AS source_accepts,
       sum(CASE WHEN f.target_kind = 'evidence' AND f.verdict = 'dispute' THEN 1 ELSE 0 END) AS evidence_disputes,
       sum(CASE WHEN f.target_kind = 'evidence' AND f.verdict = 'accept' THEN 1 ELSE 0 END) AS evidence_accepts
