// purpose: which of these evidence ids are already stored (the batch writer CREATEs the others)
// params: ids
UNWIND $ids AS id
MATCH (ev:Evidence {id: id})
RETURN ev.id AS id
