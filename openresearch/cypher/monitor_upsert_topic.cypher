// purpose: add a watched topic or update its question, sources, schedule and options (its lease, runs and history stay)
// params: id, props, now
MERGE (t:Topic {id: $id})
  ON CREATE SET t.created_at = $now, t.runs = 0
SET t += $props
RETURN t.id AS id
