"""The GPU backend against ember's conformance kit: every case of the table, in every dtype,
in PyNative and Graph mode (XLA), with gradients; and the backend-level checks."""

from ember.testing.conformance import *  # noqa: F403

#: What the GPU backend is known not to do; each gap is reported, not hidden.
EMBER_KNOWN_GAPS = "known_gaps.txt"
