"""Dataset tests that call ``ds.config.set_seed`` must not leave it set for the others."""

from __future__ import annotations

import pytest

from ember.dataset import config


@pytest.fixture(autouse=True)
def _reset_dataset_seed():
    yield
    config._seed = None
    config._generator = None
