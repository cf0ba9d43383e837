"""CLI command groups; `openresearch.cli` mounts them."""
