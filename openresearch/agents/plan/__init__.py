"""Planning: question analysis, sub-questions within a budget, query rewriting and reflection."""
