// purpose: number of relations per type
// params: -
MATCH ()-[r]->()
RETURN type(r) AS type, count(*) AS count
ORDER BY type
