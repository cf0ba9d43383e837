// purpose: counts that change whenever evidence, observations, feedback or resolutions are added: the version cached API answers are keyed by
// params: -
OPTIONAL MATCH (ev:Evidence)
WITH count(ev) AS evidence
OPTIONAL MATCH (o:Observation)
WITH evidence, count(o) AS observations
OPTIONAL MATCH (f:Feedback)
WITH evidence, observations, count(f) AS feedback
OPTIONAL MATCH (r:Resolution)
RETURN evidence, observations, feedback, count(r) AS resolutions
