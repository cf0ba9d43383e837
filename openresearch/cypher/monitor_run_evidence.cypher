// purpose: the evidence items that answer the questions one run asked: what a monitoring digest may report as its topic's, when other topics' runs write to the graph at the same time
// params: run_id
MATCH (:Run {id: $run_id})-[:ASKS]->(:Question)<-[:ANSWERS]-(ev:Evidence)
RETURN DISTINCT ev.id AS id
