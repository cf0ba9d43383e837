// purpose: remove SUPERSEDES relations whose old observation now has a nearer successor (a value that arrived late, in between); no observation is deleted
// params: -
MATCH (other:Observation)-[x:SUPERSEDES]->(old:Observation)
WHERE old.superseded_by IS NOT NULL AND other.id <> old.superseded_by
DELETE x
RETURN count(*) AS dropped
