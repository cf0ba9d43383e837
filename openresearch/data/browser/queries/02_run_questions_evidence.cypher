// title: A run's questions, evidence and sources
// purpose: the sub-questions a run asked, the evidence that answers each and the sources it was quoted from
// params: runId
MATCH p = (r:Run {id: $runId})-[:ASKS]->(q:Question)
OPTIONAL MATCH e = (q)<-[:ANSWERS]-(ev:Evidence)-[:FROM]->(s:Source)
RETURN p, e
LIMIT 300
