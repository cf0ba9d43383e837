// purpose: one watched topic with its schedule, lease and last run
// params: id
MATCH (t:Topic {id: $id})
RETURN t {.*} AS topic
