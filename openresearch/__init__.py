"""OpenResearch: a research agent whose every claim traces to a verbatim quote in a knowledge graph."""

__version__ = "0.1.0"
