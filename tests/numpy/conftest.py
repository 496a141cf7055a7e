"""ember.numpy tests run op by op (PYNATIVE_MODE) unless a test switches to GRAPH_MODE."""

import pytest

from ember import context


@pytest.fixture(autouse=True)
def _pynative():
    context.set_context(mode=context.PYNATIVE_MODE)
    yield
    context.set_context(mode=context.PYNATIVE_MODE)
