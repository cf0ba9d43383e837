// purpose: resolve folded entity keys to entities
// params: keys
MATCH (e:Entity) WHERE e.key IN $keys
RETURN e.id AS id, e.name AS name, e.key AS key, e.aliases AS aliases
