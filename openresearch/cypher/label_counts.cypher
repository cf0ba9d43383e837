// purpose: number of nodes per label
// params: -
MATCH (n)
RETURN labels(n)[0] AS label, count(*) AS count
ORDER BY label
