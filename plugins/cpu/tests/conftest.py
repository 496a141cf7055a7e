"""The CPU backend's tests: the conformance kit runs on device_target CPU."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def ember_backend() -> str:
    return "CPU"
