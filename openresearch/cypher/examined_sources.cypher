// purpose: sources a sub-question has already read
// params: question_id
MATCH (q:Question {id: $question_id})-[:EXAMINED]->(s:Source)
RETURN s.id AS id
