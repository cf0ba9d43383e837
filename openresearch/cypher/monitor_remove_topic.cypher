// purpose: stop watching a topic; its runs, digests and everything they merged into the graph stay
// params: id
MATCH (t:Topic {id: $id})
DETACH DELETE t
RETURN count(*) AS removed
