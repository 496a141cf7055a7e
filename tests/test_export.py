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


class Apply(nn.Cell):
    """A cell that applies ``fn`` to its inputs."""

    def __init__(self, fn) -> None:
        super().__init__()
        self.fn = fn

    def construct(self, *xs):
        return self.fn(*xs)


_RNG = np.random.default_rng(3)
A = _RNG.uniform(-2, 2, (2, 3, 4)).astype(np.float32)
B = _RNG.uniform(-2, 2, (2, 3, 4)).astype(np.float32)
POS = _RNG.uniform(0.1, 3, (2, 3, 4)).astype(np.float32)
UNIT = _RNG.uniform(-0.9, 0.9, (2, 3, 4)).astype(np.float32)
P = ops.operations
UNARY = ["ReLU", "Sigmoid", "Tanh", "Exp", "Neg", "Abs", "Sign", "Sin", "Cos", "Tan", "Atan",
         "Sinh", "Cosh", "Asinh", "Floor", "Ceil", "Round", "Erf", "Softplus", "Softsign",
         "HSigmoid", "HSwish", "GeLU", "FastGeLU", "Expm1", "Elu", "ReLU6", "Square",
         "Identity"]
CASES = [(name, lambda x, n=name: getattr(P, n)()(x), [A]) for name in UNARY] + [
    (name, lambda x, n=name: getattr(P, n)()(x), [POS])
    for name in ("Log", "Sqrt", "Rsqrt", "Reciprocal", "Log1p")] + [
    (name, lambda x, n=name: getattr(P, n)()(x), [UNIT]) for name in ("Asin", "Atanh")] + [
    ("Acosh", lambda x: P.Acosh()(x + 1.5), [POS]),
    *[(name, lambda x, y, n=name: getattr(P, n)()(x, y), [A, B]) for name in (
        "Add", "Sub", "Mul", "RealDiv", "Maximum", "Minimum", "Mod", "FloorDiv")],
    ("Pow", lambda x, y: P.Pow()(x, y), [POS, B]),
    *[(name, lambda x, y, n=name: ops.cast(getattr(P, n)()(x, y), ember.float32), [A, B])
      for name in ("Equal", "NotEqual", "Less", "Greater", "GreaterEqual", "LessEqual")],
    ("Select", lambda x, y: P.Select()(P.Greater()(x, y), x, y), [A, B]),
    ("IsNan/IsInf", lambda x: ops.cast(P.LogicalOr()(P.IsNan()(P.Log()(x)),
                                                     P.IsInf()(P.Log()(x))), ember.float32),
     [A]),
    ("ReduceSum", lambda x: P.ReduceSum(keep_dims=True)(x, (0, 2)), [A]),
    ("ReduceMean", lambda x: P.ReduceMean()(x, 1), [A]),
    ("ReduceMax/Min/Prod", lambda x: P.ReduceMax()(x, -1) + P.ReduceMin()(x, -1)
     + P.ReduceProd()(x, -1), [A]),
    ("Softmax/LogSoftmax", lambda x: P.Softmax(1)(x) + P.LogSoftmax(-1)(x), [A]),
    ("Transpose", lambda x: P.Transpose()(x, (2, 0, 1)), [A]),
    ("Reshape/ExpandDims/Squeeze", lambda x: P.Squeeze(0)(P.ExpandDims()(
        P.Reshape()(x, (6, 4)), 0)), [A]),
    ("Concat/Stack", lambda x, y: P.Concat(1)((x, y)) + P.Stack(1)((x, y)).reshape(2, 6, 4),
     [A, B]),
    ("Tile/BroadcastTo", lambda x: P.Tile()(x, (1, 2, 1)) + P.BroadcastTo((2, 6, 4))(
        x[:, :1, :]), [A]),
    ("Argmax/Argmin", lambda x: ops.cast(P.Argmax(axis=1)(x) + P.Argmin(axis=2)(x)[:, :1],
                                         ember.float32), [A]),
    ("StridedSlice", lambda x: x[1, ::2, 1:3] + x[0, -1:, ::-2][0, :2], [A]),
    ("Gather", lambda x: P.Gather()(x, Tensor(np.array([2, 0], np.int32)), 1), [A]),
    ("Slice/Pad", lambda x: P.Pad(((0, 0), (1, 2), (0, 1)))(P.Slice()(x, (0, 1, 1),
                                                                       (2, 2, -1))), [A]),
    ("OnesLike/ZerosLike", lambda x: x + P.OnesLike()(x) + P.ZerosLike()(x), [A]),
    ("Cast", lambda x: ops.cast(ops.cast(x, ember.int32), ember.float32), [A]),
    ("LayerNorm", lambda x: P.LayerNorm(2, 2)(x, Tensor(POS[0, 0]), Tensor(B[0, 0]))[0], [A]),
    ("BatchMatMul", lambda x, y: P.BatchMatMul(transpose_b=True)(x, y), [A, B]),
]


@pytest.mark.parametrize(("name", "fn", "inputs"), CASES, ids=[c[0] for c in CASES])
def test_each_converter_runs_in_onnxruntime(tmp_path: Path, name, fn, inputs) -> None:
    net = Apply(fn)
    tensors = [Tensor(x) for x in inputs]
    path = ember.export(net, *tensors, file_name=str(tmp_path / "op"), file_format="ONNX")
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    feeds = {i.name: x for i, x in zip(session.get_inputs(), inputs, strict=True)}
    (got,) = session.run(None, feeds)
    np.testing.assert_allclose(got, net(*tensors).asnumpy(), rtol=1e-5, atol=1e-5)


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


def test_export_and_load_import_from_train_serialization_as_in_mindspore():
    from ember.train.serialization import export, load

    assert export is ember.export and load is ember.load
