// purpose: counts that change whenever evidence, observations, feedback or resolutions are added, and the supersessions (count and latest recording time, so a supersession pass that marks stored values changes it too): the version cached API answers are keyed by
// params: -
OPTIONAL MATCH (ev:Evidence)
WITH count(ev) AS evidence
OPTIONAL MATCH (o:Observation)
WITH evidence, count(o) AS observations
OPTIONAL MATCH (f:Feedback)
WITH evidence, observations, count(f) AS feedback
OPTIONAL MATCH (r:Resolution)
WITH evidence, observations, feedback, count(r) AS resolutions
OPTIONAL MATCH ()-[s:SUPERSEDES]->()
RETURN evidence, observations, feedback, resolutions, count(s) AS supersessions,
       coalesce(max(s.recorded_at), 0) AS superseded_at
