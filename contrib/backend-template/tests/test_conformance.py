"""The Template backend against ember's conformance kit: every case of the kit's table in every
dtype, in PyNative and Graph mode, with gradients; and the backend-level checks. Primitives the
template has no kernel for are listed in known_gaps.txt and reported as known gaps."""

from ember.testing.conformance import *  # noqa: F403

#: What the Template backend does not do; each entry runs as a strict xfail and is reported.
EMBER_KNOWN_GAPS = "known_gaps.txt"
