"""Verification: every sentence checked against the evidence it cites, and the claim judges."""
