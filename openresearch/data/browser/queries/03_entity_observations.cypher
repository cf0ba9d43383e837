// title: An entity's observations and conflicts
// purpose: every value the graph holds for one entity (by name or alias), the evidence reporting it and its source; values that disagree share a metric
// params: entity
MATCH (en:Entity)
WHERE toLower(en.name) = toLower($entity) OR $entity IN en.aliases
MATCH p = (en)<-[:OF]-(o:Observation)<-[:REPORTS]-(ev:Evidence)-[:FROM]->(s:Source)
RETURN p
LIMIT 300
