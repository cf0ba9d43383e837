"""Daily monitoring: watched topics, schedules, leases, supersession of dated facts and delta digests.

A monitoring run is a research run of the topic's question (agents/run/pipeline.py) whose findings merge into
the main graph by the same idempotent MERGEs; this package adds what happens around it.
"""
