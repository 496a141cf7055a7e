"""Every test starts from MindSpore's default context and leaves it so."""

from __future__ import annotations

import pytest

from ember import context


@pytest.fixture(autouse=True)
def _fresh_context():
    context.reset_context()
    context.reset_auto_parallel_context()
    context.reset_ps_context()
    yield
    context.reset_context()
    context.reset_auto_parallel_context()
    context.reset_ps_context()
