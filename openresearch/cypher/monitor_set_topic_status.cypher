// purpose: pause or resume a topic (resuming sets when it is next due)
// params: id, status, next_due
MATCH (t:Topic {id: $id})
SET t.status = $status, t.next_due = coalesce($next_due, t.next_due)
RETURN t.id AS id
