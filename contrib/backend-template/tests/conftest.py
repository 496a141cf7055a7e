"""The Template backend's tests: ember's conformance kit runs on device_target "Template"."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def ember_backend() -> str:
    """The device_target the kit tests (``--ember-backend`` overrides it)."""
    return "Template"
