"""``export(..., file_format="MINDIR")`` and ``ember.load`` -> ``nn.GraphCell``: a network
survives the round trip with its values and parameter names; what cannot convert is refused."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import ember
from ember import Tensor, context, nn, ops
from ember.train._mindir_proto import ModelProto

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nets import EXPORTED, Elementwise, LeNet5, export_case  # noqa: E402


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
@pytest.mark.parametrize("name", EXPORTED)
def test_round_trip_through_load_and_graph_cell(tmp_path: Path, name: str, mode: int) -> None:
    context.set_context(mode=mode)
    net, array = export_case(name)
    x = Tensor(array)
    path = ember.export(net, x, file_name=str(tmp_path / "net"), file_format="MINDIR")
    assert path == str(tmp_path / "net.mindir")
    cell = nn.GraphCell(ember.load(path))
    np.testing.assert_allclose(cell(x).asnumpy(), net(x).asnumpy(), rtol=1e-5, atol=1e-6)
    params = {p.name: p.asnumpy() for p in cell.get_parameters()}
    assert set(params) == {p.name for p in net.get_parameters()}
    for p in net.get_parameters():
        np.testing.assert_array_equal(params[p.name], p.asnumpy())


def test_two_inputs_and_the_elementwise_primitives(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    x, y = (Tensor(rng.standard_normal((2, 3)).astype(np.float32)) for _ in range(2))
    net = Elementwise()
    cell = nn.GraphCell(ember.load(ember.export(net, x, y, file_name=str(tmp_path / "e"),
                                                file_format="MINDIR")))
    np.testing.assert_allclose(cell(x, y).asnumpy(), net(x, y).asnumpy(), rtol=1e-6)


def test_the_file_is_mindspores_layout(tmp_path: Path) -> None:
    net = LeNet5()
    path = ember.export(net, Tensor(np.zeros((1, 1, 32, 32), np.float32)),
                        file_name=str(tmp_path / "lenet"), file_format="MINDIR")
    model = ModelProto()
    model.ParseFromString(Path(path).read_bytes())
    kinds = {p.op_type: p.prim_type for p in model.primitives}
    assert kinds["Conv2D"] == 1 and kinds["MatMul"] == 2  # PRIMITIVE, PRIMITIVE_FUNCTION
    nodes = [n for n in model.graph.node if n.op_type != "Constant"]
    assert nodes[0].domain == "Default/conv1-Conv2d/Conv2D-op0"
    assert nodes[0].op_type.startswith("REF::Conv2D:")
    matmul = next(n for n in nodes if n.domain == "Default/fc1-Dense/MatMul-op7")
    flags = [next(c for c in model.graph.node if c.name == name).attribute[0]
             for name in matmul.input[2:]]
    assert [(f.type, f.i) for f in flags] == [(9, 0), (9, 1)]  # BOOL transpose_a, transpose_b
    assert [p.ref_key for p in model.graph.parameter] == [
        p.name for p in net.get_parameters()]


def test_refusals(tmp_path: Path) -> None:
    class Odd(nn.Cell):
        def construct(self, x):
            return ops.ReduceSum()(x, 0)

    with pytest.raises(ValueError, match="primitive ReduceSum has no MindIR form in ember"):
        ember.export(Odd(), Tensor(np.ones(3, np.float32)), file_name=str(tmp_path / "o"),
                     file_format="MINDIR")
    with pytest.raises(ValueError, match="does not exist"):
        ember.load(str(tmp_path / "missing.mindir"))
    bad = tmp_path / "bad.mindir"
    bad.write_bytes(b"\x0a\xff")
    with pytest.raises(ValueError, match="is not a MindIR file"):
        ember.load(str(bad))
    with pytest.raises(TypeError, match="graph must be the result of ember.load"):
        nn.GraphCell(LeNet5())
    cell = nn.GraphCell(ember.load(ember.export(
        LeNet5(), Tensor(np.zeros((1, 1, 32, 32), np.float32)),
        file_name=str(tmp_path / "l"), file_format="MINDIR")))
    with pytest.raises(ValueError, match=r"input 0 must be a Tensor of shape \[1, 1, 32, 32\]"):
        cell(Tensor(np.zeros((2, 1, 32, 32), np.float32)))
