"""graph_schema."""
