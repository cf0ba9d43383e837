// purpose: break a topic's lease whoever holds it (`monitor unlock`); returns who held it and until when
// params: id
MATCH (t:Topic {id: $id})
WITH t, t.lease_owner AS owner, t.lease_until AS until
SET t.lease_owner = null, t.lease_until = null
RETURN t.id AS id, owner, until
