"""The Ascend backend's tests run over the strict driver double (``acl_double.py``) unless
``EMBER_ASCEND_REAL=1`` asks for the CANN on this machine (a real Ascend device)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from acl_double import AclDouble

from ember_ascend import driver

REAL = os.environ.get("EMBER_ASCEND_REAL") == "1"
if not REAL:
    driver.use(AclDouble())


@pytest.fixture(scope="session")
def ember_backend() -> str:
    return "Ascend"


@pytest.fixture
def double() -> AclDouble:
    """The double the backend runs on (tests of the double's own contract skip on hardware)."""
    if REAL:
        pytest.skip("runs on the driver double only")
    return driver.installed()


@pytest.fixture(autouse=True)
def no_hidden_violation() -> Iterator[None]:
    """A contract violation raised where no test could see it (in a finalizer, which swallows
    exceptions) still fails the test that caused it."""
    yield
    if not REAL:
        seen = driver.installed().violations
        violations, seen[:] = list(seen), []
        assert not violations, violations
