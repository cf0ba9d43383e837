"""Extraction: evidence items (verbatim spans) and numeric observations from sources."""
