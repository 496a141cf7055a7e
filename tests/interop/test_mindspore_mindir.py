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
from nets import EXPORTED, Elementwise, export_case  # noqa: E402


@pytest.mark.parametrize("name", EXPORTED)
def test_mindspore_loads_and_runs_embers_mindir(tmp_path: Path, name: str) -> None:
    net, x = export_case(name)
    path = ember.export(net, Tensor(x), file_name=str(tmp_path / "net"), file_format="MINDIR")
    want = net(Tensor(x)).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
    got = ms.nn.GraphCell(ms.load(path))(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_mindspore_reads_the_elementwise_primitives(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    x, y = (rng.standard_normal((2, 3)).astype(np.float32) for _ in range(2))
    net = Elementwise()
    path = ember.export(net, Tensor(x), Tensor(y), file_name=str(tmp_path / "elementwise"),
                        file_format="MINDIR")
    ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
    got = ms.nn.GraphCell(ms.load(path))(ms.Tensor(x), ms.Tensor(y)).asnumpy()
    np.testing.assert_allclose(got, net(Tensor(x), Tensor(y)).asnumpy(), rtol=1e-5, atol=1e-6)
