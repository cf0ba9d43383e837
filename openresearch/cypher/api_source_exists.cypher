// purpose: whether a source exists (feedback on an unknown source is refused)
// params: id
MATCH (s:Source {id: $id})
RETURN s.id AS source_id
