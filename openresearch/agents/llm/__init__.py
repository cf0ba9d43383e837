"""The LLM layer: the OpenAI-compatible client, per-role configuration, JSON parsing, prompts, budget."""
