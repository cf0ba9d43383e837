"""The research run: options, role assembly, gathering, the run loop and its metrics."""
