"""Ember's CPU backend: every primitive as a NumPy kernel."""
