"""The op tests run op by op (PYNATIVE_MODE); graph mode is checked by tests/graph and the kit."""

import pytest

from ember import context


@pytest.fixture(autouse=True)
def _pynative():
    context.set_context(mode=context.PYNATIVE_MODE)
