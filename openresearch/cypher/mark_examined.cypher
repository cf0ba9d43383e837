// purpose: remember that a sub-question's extraction read a source (so a resumed run does not extract it again)
// params: question_id, source_ids
MATCH (q:Question {id: $question_id})
UNWIND $source_ids AS sid
MATCH (s:Source {id: sid})
MERGE (q)-[:EXAMINED]->(s)
