"""The GPU backend's tests: the conformance kit runs on device_target GPU.

Without a GPU, run them on TensorFlow's CPU device: ``EMBER_GPU_ON_CPU=1 pytest plugins/gpu``
(what ``tox -e gpu`` does).
"""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def ember_backend() -> str:
    return "GPU"
