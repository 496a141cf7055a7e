"""The Ascend backend against ember's conformance kit, over the driver double (CPU-side NumPy
reference values): every case, in every dtype, PyNative and Graph mode, with gradients."""

from ember.testing.conformance import *  # noqa: F403

#: What the Ascend backend is known not to do; each gap is reported, not hidden.
EMBER_KNOWN_GAPS = "known_gaps.txt"
