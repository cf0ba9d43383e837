// purpose: set a source's trust (recomputed from its base trust and the feedback on it)
// params: source_id, trust
MATCH (s:Source {id: $source_id})
SET s.trust = $trust
RETURN s.trust AS trust
