"""Tools for testing backends and networks: the conformance kit and the checkers."""

from ember.testing.checkers import ComparisonReport, check_mode_parity, compare_backends

__all__ = ["ComparisonReport", "check_mode_parity", "compare_backends"]
