"""Ember's GPU backend: primitives run as TensorFlow ops on one GPU, graphs compile with XLA."""
