// purpose: extend our lease while a monitoring run goes on; no row when another worker holds it now
// params: id, owner, until
MATCH (t:Topic {id: $id})
WHERE t.lease_owner = $owner
SET t.lease_until = $until
RETURN t.id AS id
