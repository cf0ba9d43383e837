// purpose: a topic's digests, newest first (their JSON)
// params: topic_id, limit
MATCH (d:Digest {topic_id: $topic_id})
RETURN d.id AS id, d.at AS at, d.nothing_changed AS nothing_changed, d.data AS data, d.markdown AS markdown
ORDER BY d.at DESC, d.id DESC
LIMIT $limit
