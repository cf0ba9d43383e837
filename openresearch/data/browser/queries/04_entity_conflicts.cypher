// title: An entity's conflicts
// purpose: pairs of values for the same entity, metric, unit and condition that differ, reported by two different sources
// params: entity
MATCH (en:Entity)
WHERE toLower(en.name) = toLower($entity) OR $entity IN en.aliases
MATCH (en)<-[:OF]-(o1:Observation), (en)<-[:OF]-(o2:Observation)
WHERE o1.key = o2.key AND o1.condition_key = o2.condition_key AND o1.value < o2.value
MATCH a = (o1)<-[:REPORTS]-(:Evidence)-[:FROM]->(s1:Source)
MATCH b = (o2)<-[:REPORTS]-(:Evidence)-[:FROM]->(s2:Source)
WHERE s1 <> s2
RETURN en, a, b
LIMIT 100
