"""Tools for testing backends and networks: the conformance kit and the checkers.

A backend package tests itself with a module that star-imports the kit's tests::

    # tests/test_conformance.py of the backend
    from ember.testing.conformance import *  # noqa: F403

and runs ``pytest --ember-backend=<device_target> [--ember-known-gaps=FILE]
[--ember-report=report.json]`` (ember-core registers the pytest plugin
``ember.testing.plugin``; where it is not installed, add ``-p ember.testing.plugin``). The
table of cases is ``ember.testing.cases.registry``; ``check_grad`` is the finite-difference
gradient check the kit uses.
"""

from ember.testing.cases import OpCase
from ember.testing.checkers import ComparisonReport, check_mode_parity, compare_backends
from ember.testing.gradcheck import check_grad

__all__ = ["ComparisonReport", "OpCase", "check_grad", "check_mode_parity", "compare_backends"]
