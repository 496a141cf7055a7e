"""A traced inference graph as an ONNX model (opset 13), through the ``onnx`` package.

``CONVERTERS`` maps a primitive's name to a function that adds the ONNX nodes computing it;
a graph with a primitive missing from the table is refused with an error that names it.
Parameters and constants become initializers named as the Parameters (``conv1.weight``), the
ONNX nodes are named by the scope of the node they come from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.graph.ir import Graph, Node, Value

OPSET = 13


def _import_onnx() -> Any:
    try:
        import onnx
    except ImportError:
        raise ImportError("export(file_format='ONNX') needs the onnx package: pip install "
                          "'ember-core[onnx]'") from None
    return onnx


class _Builder:
    """The ONNX graph being written: names, initializers and nodes."""

    def __init__(self, onnx: Any, graph: Graph) -> None:
        self.onnx, self.graph = onnx, graph
        self.names: dict[int, str] = {}
        self.initializers: list[Any] = []
        self.nodes: list[Any] = []
        self.node: Node | None = None

    def name(self, value: Value) -> str:
        return self.names[value.id]

    def const(self, array: Any, hint: str) -> str:
        """An initializer holding ``array``; its name."""
        name = f"{self.node.scope if self.node else 'const'}/{hint}{len(self.initializers)}"
        self.initializers.append(self.onnx.numpy_helper.from_array(np.asarray(array), name))
        return name

    def emit(self, op_type: str, inputs: list[str], outputs: list[str] | None = None,
             **attrs: Any) -> str:
        """Add one ONNX node; its (first) output's name."""
        assert self.node is not None
        index = len(self.nodes)
        outputs = outputs or [f"{self.node.scope}/{op_type}{index}"]
        self.nodes.append(self.onnx.helper.make_node(
            op_type, inputs, outputs, name=f"{self.node.scope}#{index}", **attrs))
        return outputs[0]

    def out(self, index: int = 0) -> list[str]:
        """The name of output ``index`` of the node being converted, as a list."""
        assert self.node is not None
        return [self.names[self.node.outputs[index].id]]


Converter = Callable[[_Builder, Node, list[Any]], None]
CONVERTERS: dict[str, Converter] = {}


def _unary(onnx_op: str) -> Converter:
    def convert(b: _Builder, node: Node, args: list[Any]) -> None:
        b.emit(onnx_op, [args[0]], b.out())
    return convert


def _binary(onnx_op: str) -> Converter:
    def convert(b: _Builder, node: Node, args: list[Any]) -> None:
        b.emit(onnx_op, [args[0], args[1]], b.out())
    return convert


for _name, _op in {"ReLU": "Relu", "Sigmoid": "Sigmoid", "Tanh": "Tanh", "Exp": "Exp",
                   "Log": "Log", "Sqrt": "Sqrt", "Neg": "Neg", "Abs": "Abs", "Sign": "Sign",
                   "Reciprocal": "Reciprocal", "Identity": "Identity", "LogicalNot": "Not",
                   "Sin": "Sin", "Cos": "Cos", "Tan": "Tan", "Asin": "Asin", "Atan": "Atan",
                   "Sinh": "Sinh", "Cosh": "Cosh", "Asinh": "Asinh", "Acosh": "Acosh",
                   "Atanh": "Atanh", "Floor": "Floor", "Ceil": "Ceil", "Round": "Round",
                   "Erf": "Erf", "Softplus": "Softplus", "Softsign": "Softsign",
                   "IsNan": "IsNaN", "IsInf": "IsInf"}.items():
    CONVERTERS[_name] = _unary(_op)
for _name, _op in {"Add": "Add", "Sub": "Sub", "Mul": "Mul", "RealDiv": "Div", "Div": "Div",
                   "Maximum": "Max", "Minimum": "Min", "Pow": "Pow", "Equal": "Equal",
                   "Less": "Less", "Greater": "Greater", "LogicalAnd": "And",
                   "LogicalOr": "Or", "GreaterEqual": "GreaterOrEqual",
                   "LessEqual": "LessOrEqual"}.items():
    CONVERTERS[_name] = _binary(_op)


def _conv2d(b: _Builder, node: Node, args: list[Any]) -> None:
    p = node.prim
    attrs: dict[str, Any] = {"strides": list(p.stride[2:]), "dilations": list(p.dilation[2:]),
                             "group": p.group, "kernel_shape": list(p.kernel_size)}
    if p.pad_mode == "same":
        attrs["auto_pad"] = "SAME_UPPER"
    else:
        top, bottom, left, right = p.pad if p.pad_mode == "pad" else (0, 0, 0, 0)
        attrs["pads"] = [top, left, bottom, right]
    b.emit("Conv", args[:2], b.out(), **attrs)


def _pool(onnx_op: str) -> Converter:
    def convert(b: _Builder, node: Node, args: list[Any]) -> None:
        p = node.prim
        attrs: dict[str, Any] = {"kernel_shape": list(p.kernel_size[2:]),
                                 "strides": list(p.strides[2:])}
        if p.pad_mode == "SAME":
            attrs["auto_pad"] = "SAME_UPPER"
        b.emit(onnx_op, [args[0]], b.out(), **attrs)
    return convert


def _bias_add(b: _Builder, node: Node, args: list[Any]) -> None:
    rank = len(node.inputs[0].shape)
    bias = args[1]
    if rank > 2:  # the channel axis is 1: the bias broadcasts as (C, 1, ..., 1)
        bias = b.emit("Reshape", [bias, b.const(np.array([-1] + [1] * (rank - 2)), "shape")])
    b.emit("Add", [args[0], bias], b.out())


def _matmul(b: _Builder, node: Node, args: list[Any]) -> None:
    p = node.prim
    a, w = args[0], args[1]
    if len(node.inputs[0].shape) == 2 and len(node.inputs[1].shape) == 2:
        b.emit("Gemm", [a, w], b.out(), transA=int(p.transpose_a), transB=int(p.transpose_b))
        return
    for flag, which in ((p.transpose_a, 0), (p.transpose_b, 1)):
        if flag:
            rank = len(node.inputs[which].shape)
            perm = [*range(rank - 2), rank - 1, rank - 2]
            if which == 0:
                a = b.emit("Transpose", [a], perm=perm)
            else:
                w = b.emit("Transpose", [w], perm=perm)
    b.emit("MatMul", [a, w], b.out())


def _batch_norm(b: _Builder, node: Node, args: list[Any]) -> None:
    if node.prim.is_training:
        raise ValueError(f"export: BatchNorm at {node.scope} is in training mode; ONNX "
                         "exports inference graphs (the network is exported with "
                         "set_train(False))")
    b.emit("BatchNormalization", args[:5], b.out(), epsilon=float(node.prim.epsilon))


def _reshape(b: _Builder, node: Node, args: list[Any]) -> None:
    b.emit("Reshape", [args[0], b.const(np.array(node.outputs[0].shape, np.int64), "shape")],
           b.out())


def _axes(value: Any, rank: int) -> list[int]:
    axes = value if isinstance(value, tuple | list) else (value,)
    return [int(a) % rank for a in axes] if axes else list(range(rank))


def _reduce(onnx_op: str, axes_as_input: bool) -> Converter:
    def convert(b: _Builder, node: Node, args: list[Any]) -> None:
        axes = _axes(node.inputs[1] if len(node.inputs) > 1 else (), len(node.inputs[0].shape))
        keep = int(node.prim.keep_dims)
        if axes_as_input:
            b.emit(onnx_op, [args[0], b.const(np.array(axes, np.int64), "axes")], b.out(),
                   keepdims=keep)
        else:
            b.emit(onnx_op, [args[0]], b.out(), axes=axes, keepdims=keep)
    return convert


def _softmax(onnx_op: str) -> Converter:
    def convert(b: _Builder, node: Node, args: list[Any]) -> None:
        axes = _axes(node.prim.axis, len(node.inputs[0].shape))
        if len(axes) != 1:
            raise ValueError(f"export: {node.prim.name} at {node.scope} over axes {axes}: "
                             "ONNX normalises over one axis")
        b.emit(onnx_op, [args[0]], b.out(), axis=axes[0])
    return convert


def _transpose(b: _Builder, node: Node, args: list[Any]) -> None:
    b.emit("Transpose", [args[0]], b.out(), perm=list(node.inputs[1]))


def _cast(b: _Builder, node: Node, args: list[Any]) -> None:
    to = b.onnx.helper.np_dtype_to_tensor_dtype(np.dtype(node.outputs[0].dtype.np_dtype))
    b.emit("Cast", [args[0]], b.out(), to=to)


def _names(args: list[Any]) -> list[str]:
    """The tensor inputs of a node that takes several, as one tuple or one by one."""
    return [n for a in args for n in (a if isinstance(a, list) else [a])]


def _concat(b: _Builder, node: Node, args: list[Any]) -> None:
    b.emit("Concat", _names(args), b.out(), axis=node.prim.axis)


def _strided_slice(b: _Builder, node: Node, args: list[Any]) -> None:
    p = node.prim
    if p.ellipsis_mask or p.new_axis_mask:
        raise ValueError(f"export: StridedSlice at {node.scope} with an ellipsis or a new axis "
                         "has no ONNX form in ember; index without ... and None")
    begin, end, strides = node.inputs[1:4]
    big = np.iinfo(np.int64).max
    starts = [(0 if st > 0 else big) if p.begin_mask >> i & 1 else s
              for i, (s, st) in enumerate(zip(begin, strides))]
    ends = [(big if st > 0 else -big) if p.end_mask >> i & 1 else e
            for i, (e, st) in enumerate(zip(end, strides))]
    shrink = [i for i in range(len(begin)) if p.shrink_axis_mask >> i & 1]
    for i in shrink:  # one element: ends right after the start
        ends[i] = starts[i] + 1 if starts[i] != -1 else big
    sliced = b.emit("Slice", [args[0], b.const(np.array(starts, np.int64), "starts"),
                              b.const(np.array(ends, np.int64), "ends"),
                              b.const(np.arange(len(begin), dtype=np.int64), "axes"),
                              b.const(np.array(strides, np.int64), "steps")],
                    None if shrink else b.out())
    if shrink:
        b.emit("Squeeze", [sliced, b.const(np.array(shrink, np.int64), "axes")], b.out())


def _expand_dims(b: _Builder, node: Node, args: list[Any]) -> None:
    axis = node.inputs[1] % len(node.outputs[0].shape)
    b.emit("Unsqueeze", [args[0], b.const(np.array([axis], np.int64), "axes")], b.out())


def _relu6(b: _Builder, node: Node, args: list[Any]) -> None:
    dtype = node.outputs[0].dtype.np_dtype
    b.emit("Clip", [args[0], b.const(np.array(0, dtype), "min"),
                    b.const(np.array(6, dtype), "max")], b.out())


def _square(b: _Builder, node: Node, args: list[Any]) -> None:
    b.emit("Mul", [args[0], args[0]], b.out())


def _scalar(b: _Builder, node: Node, value: float, hint: str) -> str:
    return b.const(np.array(value, node.outputs[0].dtype.np_dtype), hint)


def _rsqrt(b: _Builder, node: Node, args: list[Any]) -> None:
    b.emit("Reciprocal", [b.emit("Sqrt", [args[0]])], b.out())


def _expm1(b: _Builder, node: Node, args: list[Any]) -> None:
    b.emit("Sub", [b.emit("Exp", [args[0]]), _scalar(b, node, 1, "one")], b.out())


def _log1p(b: _Builder, node: Node, args: list[Any]) -> None:
    b.emit("Log", [b.emit("Add", [args[0], _scalar(b, node, 1, "one")])], b.out())


def _elu(b: _Builder, node: Node, args: list[Any]) -> None:
    b.emit("Elu", [args[0]], b.out(), alpha=float(node.prim.alpha))


def _hsigmoid(b: _Builder, node: Node, args: list[Any]) -> None:
    b.emit("HardSigmoid", [args[0]], b.out(), alpha=1 / 6, beta=0.5)


def _hswish(b: _Builder, node: Node, args: list[Any]) -> None:
    gate = b.emit("HardSigmoid", [args[0]], alpha=1 / 6, beta=0.5)
    b.emit("Mul", [args[0], gate], b.out())


def _gelu(b: _Builder, node: Node, args: list[Any]) -> None:
    """The tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
    x = args[0]
    cube = b.emit("Mul", [b.emit("Mul", [x, x]), x])
    inner = b.emit("Add", [x, b.emit("Mul", [cube, _scalar(b, node, 0.044715, "a")])])
    t = b.emit("Tanh", [b.emit("Mul", [inner, _scalar(b, node, np.sqrt(2 / np.pi), "c")])])
    half_x = b.emit("Mul", [x, _scalar(b, node, 0.5, "half")])
    b.emit("Mul", [half_x, b.emit("Add", [t, _scalar(b, node, 1, "one")])], b.out())


def _fast_gelu(b: _Builder, node: Node, args: list[Any]) -> None:
    """x sigmoid(1.702 x)."""
    gate = b.emit("Sigmoid", [b.emit("Mul", [args[0], _scalar(b, node, 1.702, "k")])])
    b.emit("Mul", [args[0], gate], b.out())


def _not_equal(b: _Builder, node: Node, args: list[Any]) -> None:
    b.emit("Not", [b.emit("Equal", args[:2])], b.out())


def _mod(b: _Builder, node: Node, args: list[Any]) -> None:  # C's fmod: the dividend's sign
    b.emit("Mod", args[:2], b.out(), fmod=1)


def _floor_div(b: _Builder, node: Node, args: list[Any]) -> None:
    if not mstype.is_float(node.outputs[0].dtype):
        raise ValueError(f"export: FloorDiv at {node.scope} on {node.outputs[0].dtype}: ONNX's "
                         "Div truncates integers; only float FloorDiv exports")
    b.emit("Floor", [b.emit("Div", args[:2])], b.out())


def _select(b: _Builder, node: Node, args: list[Any]) -> None:
    b.emit("Where", args[:3], b.out())


def _like(value: float) -> Converter:
    def convert(b: _Builder, node: Node, args: list[Any]) -> None:
        out = node.outputs[0]
        b.emit("Identity", [b.const(np.full(out.shape, value, out.dtype.np_dtype), "fill")],
               b.out())
    return convert


def _squeeze(b: _Builder, node: Node, args: list[Any]) -> None:
    shape = node.inputs[0].shape
    axes = _axes(node.prim.axis, len(shape)) if node.prim.axis != () else [
        i for i, d in enumerate(shape) if d == 1]
    b.emit("Squeeze", [args[0], b.const(np.array(axes, np.int64), "axes")], b.out())


def _stack(b: _Builder, node: Node, args: list[Any]) -> None:
    names = _names(args)
    axis = node.prim.axis % len(node.outputs[0].shape)
    axes = b.const(np.array([axis], np.int64), "axes")
    b.emit("Concat", [b.emit("Unsqueeze", [n, axes]) for n in names], b.out(), axis=axis)


def _tile(b: _Builder, node: Node, args: list[Any]) -> None:
    b.emit("Tile", [args[0], b.const(np.array(node.inputs[1], np.int64), "repeats")], b.out())


def _broadcast_to(b: _Builder, node: Node, args: list[Any]) -> None:
    shape = np.array(node.outputs[0].shape, np.int64)
    b.emit("Expand", [args[0], b.const(shape, "shape")], b.out())


def _arg(onnx_op: str) -> Converter:
    def convert(b: _Builder, node: Node, args: list[Any]) -> None:
        axis = node.prim.axis % len(node.inputs[0].shape)
        index = b.emit(onnx_op, [args[0]], axis=axis, keepdims=0)
        to = b.onnx.helper.np_dtype_to_tensor_dtype(np.dtype(node.outputs[0].dtype.np_dtype))
        b.emit("Cast", [index], b.out(), to=to)
    return convert


def _gather(b: _Builder, node: Node, args: list[Any]) -> None:
    axis = node.inputs[2] % len(node.inputs[0].shape)
    b.emit("Gather", args[:2], b.out(), axis=axis)


def _slice(b: _Builder, node: Node, args: list[Any]) -> None:
    begin, size = node.inputs[1], node.inputs[2]
    shape = node.inputs[0].shape
    ends = [d if n == -1 else s + n for s, n, d in zip(begin, size, shape)]
    b.emit("Slice", [args[0], b.const(np.array(begin, np.int64), "starts"),
                     b.const(np.array(ends, np.int64), "ends")], b.out())


def _pad(b: _Builder, node: Node, args: list[Any]) -> None:
    paddings = node.prim.paddings
    pads = [p[0] for p in paddings] + [p[1] for p in paddings]
    b.emit("Pad", [args[0], b.const(np.array(pads, np.int64), "pads")], b.out())


def _layer_norm(b: _Builder, node: Node, args: list[Any]) -> None:
    """(x - mean) / sqrt(var + eps) * gamma + beta over the axes from begin_norm_axis; mean
    and var are outputs 1 and 2 (kept dims)."""
    x, gamma, beta = args[:3]
    rank = len(node.inputs[0].shape)
    axes = list(range(node.prim.begin_norm_axis % rank, rank))
    mean = b.emit("ReduceMean", [x], b.out(1), axes=axes, keepdims=1)
    centred = b.emit("Sub", [x, mean])
    var = b.emit("ReduceMean", [b.emit("Mul", [centred, centred])], b.out(2), axes=axes,
                 keepdims=1)
    eps = _scalar(b, node, node.prim.epsilon, "epsilon")
    normed = b.emit("Div", [centred, b.emit("Sqrt", [b.emit("Add", [var, eps])])])
    b.emit("Add", [b.emit("Mul", [normed, gamma]), beta], b.out())


CONVERTERS.update({
    "Rsqrt": _rsqrt, "Expm1": _expm1, "Log1p": _log1p, "Elu": _elu, "HSigmoid": _hsigmoid,
    "HSwish": _hswish, "GeLU": _gelu, "FastGeLU": _fast_gelu, "NotEqual": _not_equal,
    "Mod": _mod, "FloorDiv": _floor_div, "Select": _select, "OnesLike": _like(1),
    "ZerosLike": _like(0), "Squeeze": _squeeze, "Stack": _stack, "Tile": _tile,
    "BroadcastTo": _broadcast_to, "Argmax": _arg("ArgMax"), "Argmin": _arg("ArgMin"),
    "Gather": _gather, "Slice": _slice, "Pad": _pad, "LayerNorm": _layer_norm,
    "ReduceProd": _reduce("ReduceProd", False), "StridedSlice": _strided_slice,
})
CONVERTERS.update({
    "Conv2D": _conv2d, "MaxPool": _pool("MaxPool"), "AvgPool": _pool("AveragePool"),
    "BiasAdd": _bias_add, "MatMul": _matmul, "BatchMatMul": _matmul,
    "BatchNorm": _batch_norm, "Reshape": _reshape,
    "ReduceSum": _reduce("ReduceSum", True), "ReduceMean": _reduce("ReduceMean", False),
    "ReduceMax": _reduce("ReduceMax", False), "ReduceMin": _reduce("ReduceMin", False),
    "Softmax": _softmax("Softmax"), "LogSoftmax": _softmax("LogSoftmax"),
    "Transpose": _transpose, "Cast": _cast, "Concat": _concat, "ExpandDims": _expand_dims,
    "ReLU6": _relu6, "Square": _square,
})


def to_onnx(graph: Graph) -> Any:
    """The ONNX ``ModelProto`` of ``graph`` (checked by ``onnx.checker``)."""
    onnx = _import_onnx()
    missing = sorted({n.prim.name for n in graph.nodes if n.prim.name not in CONVERTERS})
    if missing:
        nodes = [n for n in graph.nodes if n.prim.name in missing]
        raise ValueError(
            f"export(file_format='ONNX'): primitive {', '.join(missing)} has no ONNX "
            f"equivalent in ember (used at {nodes[0].scope}, {nodes[0].source}); the "
            f"primitives that export are: {', '.join(sorted(CONVERTERS))}")
    b = _Builder(onnx, graph)
    helper = onnx.helper

    def info(name: str, value: Value) -> Any:
        elem = helper.np_dtype_to_tensor_dtype(np.dtype(value.dtype.np_dtype))
        return helper.make_tensor_value_info(name, elem, list(value.shape))

    inputs = []
    for i, v in enumerate(graph.inputs):
        b.names[v.id] = f"x{i}" if len(graph.inputs) > 1 else "x"
        inputs.append(info(b.names[v.id], v))
    for v in graph.params:
        b.names[v.id] = v.param.name
        b.initializers.append(onnx.numpy_helper.from_array(v.param.asnumpy(), v.param.name))
    for v in graph.consts:
        b.names[v.id] = b.const(v.array, "const")
    for node in graph.nodes:
        for v in node.outputs:
            b.names[v.id] = f"{node.scope}:{v.index}"
    for node in graph.nodes:
        b.node = node
        args = [_arg(b, x) for x in node.inputs]
        CONVERTERS[node.prim.name](b, node, args)
    outputs = []
    for i, v in enumerate(graph.outputs):
        if not isinstance(v, Value):
            raise ValueError(f"export(file_format='ONNX'): output {i} of the network is the "
                             f"Python value {v!r}; ONNX models return tensors only")
        outputs.append(info(b.names[v.id], v))
    model = helper.make_model(
        helper.make_graph(b.nodes, graph.name, inputs, outputs, b.initializers),
        opset_imports=[helper.make_opsetid("", OPSET)], producer_name="ember")
    onnx.checker.check_model(model)
    return model


def _arg(b: _Builder, x: Any) -> Any:
    if isinstance(x, Value):
        return b.name(x)
    if isinstance(x, tuple | list) and any(isinstance(i, Value) for i in x):
        return [b.name(i) for i in x]
    return x
