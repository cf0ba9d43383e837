// purpose: remove the SUPERSEDES relations that point at the observations of removed sources (their kept last versions): a deleted document's values are history, and nothing current points at them
// params: ids
MATCH (v:Source) WHERE v.version_of IN $ids
MATCH (v)<-[:FROM]-(:Evidence)-[:REPORTS]->(o:Observation)<-[r:SUPERSEDES]-(:Observation)
DELETE r
RETURN count(*) AS dropped
