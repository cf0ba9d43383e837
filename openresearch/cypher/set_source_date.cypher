// purpose: a source whose text is unchanged but whose stated publication date changed takes the new date (the monitor reports the change from its snapshots)
// params: id, published_at
MATCH (s:Source {id: $id})
SET s.published_at = $published_at
RETURN s.id AS id
