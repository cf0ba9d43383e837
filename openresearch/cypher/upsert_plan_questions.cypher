// purpose: store a run's sub-questions, ASKS links and the DEPENDS_ON DAG
// params: run_id, rows
MATCH (r:Run {id: $run_id})
UNWIND $rows AS q
MERGE (n:Question {id: q.id})
  ON CREATE SET n.text = q.text, n.key = q.key
SET n.role = q.role, n.depth = q.depth, n.keywords = q.keywords
MERGE (r)-[a:ASKS]->(n)
SET a.position = q.position
FOREACH (dep IN q.depends_on |
  MERGE (d:Question {id: dep})
  MERGE (n)-[:DEPENDS_ON]->(d)
)
