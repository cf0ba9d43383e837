// purpose: link existing evidence to a sub-question it answers (evidence found earlier for another question)
// params: question_id, ids
MATCH (q:Question {id: $question_id})
UNWIND $ids AS eid
MATCH (ev:Evidence {id: eid})
MERGE (ev)-[:ANSWERS]->(q)
