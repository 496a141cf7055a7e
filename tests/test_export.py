"""``ember.export(..., file_format="ONNX")``: the model runs in onnxruntime and gives Ember's
logits; unsupported primitives and formats are refused by name."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import ember
from ember import Tensor, context, nn, ops

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nets import EXPORTED, LeNet5, export_case  # noqa: E402


def run_onnx(path: str, x: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    (out,) = session.run(None, {session.get_inputs()[0].name: x})
    return out


@pytest.mark.parametrize("name", EXPORTED)
def test_onnxruntime_gives_embers_logits(tmp_path: Path, name: str) -> None:
    net, x = export_case(name)
    net.set_train(True)
    path = ember.export(net, Tensor(x), file_name=str(tmp_path / "net"), file_format="ONNX")
    assert path == str(tmp_path / "net.onnx") and net.training  # the mode is restored
    model = onnx.load(path)
    assert model.opset_import[0].version >= 13
    assert {i.name for i in model.graph.initializer} >= {p.name for p in net.get_parameters()
                                                         if "moving" not in p.name} - {""}
    net.set_train(False)
    want = net(Tensor(x)).asnumpy()
    np.testing.assert_allclose(run_onnx(path, x), want, rtol=1e-5, atol=1e-5)
    context.set_context(mode=context.GRAPH_MODE)  # the same in GRAPH_MODE
    np.testing.assert_allclose(run_onnx(path, x), net(Tensor(x)).asnumpy(), rtol=1e-5,
                               atol=1e-5)


def test_nodes_are_named_by_scope(tmp_path: Path) -> None:
    path = ember.export(LeNet5(), Tensor(np.zeros((1, 1, 32, 32), np.float32)),
                        file_name=str(tmp_path / "lenet.onnx"), file_format="ONNX")
    names = [n.name for n in onnx.load(path).graph.node]
    assert names[0].startswith("Default/conv1-Conv2d/Conv2D-op0")
    assert [n.op_type for n in onnx.load(path).graph.node][:3] == ["Conv", "Relu", "MaxPool"]


def test_refusals(tmp_path: Path) -> None:
    class Odd(nn.Cell):
        def construct(self, x):
            return ops.ArgMaxWithValue(axis=0)(x)[1]

    x = Tensor(np.ones((2, 2), np.float32))
    with pytest.raises(ValueError, match="primitive ArgMaxWithValue has no ONNX equivalent in "
                                         "ember \\(used at Default/ArgMaxWithValue-op0"):
        ember.export(Odd(), x, file_name=str(tmp_path / "odd"), file_format="ONNX")
    with pytest.raises(ValueError, match="file_format must be one of ONNX, .* got 'AIR' \\(AIR is"):
        ember.export(Odd(), x, file_name=str(tmp_path / "odd"))
    with pytest.raises(TypeError, match="input 0 must be a Tensor, but got ndarray"):
        ember.export(Odd(), np.ones(2), file_name=str(tmp_path / "odd"), file_format="ONNX")
    assert list(tmp_path.iterdir()) == []
