"""MindSpore's own ``load`` reads the MindIR files ember writes, and its ``nn.GraphCell`` gives
ember's outputs. Runs where MindSpore is installed: ``tox -e mindspore``."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import ember
from ember import Tensor

ms = pytest.importorskip("mindspore")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "contrib" / "lenet"))
from lenet import LeNet5  # noqa: E402
from nets import ResidualBlock, non_trivial_batch_norm  # noqa: E402


@pytest.mark.parametrize(("make", "shape"), [(LeNet5, (3, 1, 32, 32)),
                                             (ResidualBlock, (2, 4, 8, 8))])
def test_mindspore_loads_and_runs_embers_mindir(tmp_path: Path, make, shape) -> None:
    net = make()
    non_trivial_batch_norm(net)
    net.set_train(False)
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    path = ember.export(net, Tensor(x), file_name=str(tmp_path / "net"), file_format="MINDIR")
    want = net(Tensor(x)).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
    got = ms.nn.GraphCell(ms.load(path))(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
