// title: Provenance of an evidence id
// purpose: where one evidence item (E-…) came from: its source, the questions it answers and the runs that asked them, what it mentions and reports, and the report sections citing it
// params: evidenceId
MATCH p = (ev:Evidence {id: $evidenceId})-[:FROM]->(s:Source)
OPTIONAL MATCH q = (ev)-[:ANSWERS]->(:Question)<-[:ASKS]-(:Run)
OPTIONAL MATCH m = (ev)-[:MENTIONS|REPORTS]->()
OPTIONAL MATCH c = (:Section)-[:CITES]->(ev)
RETURN p, q, m, c
