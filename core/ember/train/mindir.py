"""MindIR: an inference graph in MindSpore's ``mind_ir.proto`` format (MindSpore 2.x layout:
a table of primitives, nodes ``REF::<primitive>``, non-tensor inputs as ``Constant`` nodes),
written by ``export(..., file_format="MINDIR")`` and read back by :func:`load`.

``OPS`` is the table of primitives that convert, each with the way MindSpore 2.x spells it:
a ``PRIMITIVE`` with attributes (Conv2D, MaxPool) or a ``PRIMITIVE_FUNCTION`` whose settings
are trailing constant inputs (MatMul's transpose flags, BiasAdd's data format, ...).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.common.parameter import Parameter
from ember.graph.ir import Graph, Node, Value
from ember.train._mindir_proto import ATTRIBUTE_TYPES as T
from ember.train._mindir_proto import ModelProto

__all__ = ["load", "to_mindir"]

#: TensorProto.DataType by ember dtype name.
_DATA_TYPES = {"Float32": 1, "UInt8": 2, "Int8": 3, "UInt16": 4, "Int16": 5, "Int32": 6,
               "Int64": 7, "Bool": 9, "Float16": 10, "Float64": 11, "UInt32": 12, "UInt64": 13}
_BY_CODE = {code: getattr(mstype, name.lower().replace("bool", "bool_"))
            for name, code in _DATA_TYPES.items()}
_PAD_MODES = {"PAD": 0, "SAME": 1, "VALID": 2}  # MindSpore 2.x's PadMode enum
_NCHW = 0  # MindSpore 2.x's Format enum


@dataclass(frozen=True)
class OpForm:
    """How one ember primitive is written: MindSpore's op_type, whether it is a
    PRIMITIVE_FUNCTION, its attributes, its trailing constant inputs, and how to rebuild
    the ember primitive from (attributes, constants)."""

    op_type: str
    function: bool
    attrs: Callable[[Any], dict[str, Any]]
    consts: Callable[[Node], list[Any]]
    build: Callable[[dict[str, Any], list[Any]], Any]


def _ops() -> dict[str, OpForm]:
    from ember.ops import operations as P

    def none(_: Any) -> dict[str, Any]:
        return {}

    def no_consts(_: Node) -> list[Any]:
        return []

    def simple(cls: Any) -> OpForm:
        return OpForm(cls.__name__, True, none, no_consts, lambda a, c: cls())

    def conv_attrs(p: Any) -> dict[str, Any]:
        return {"kernel_size": tuple(p.kernel_size), "mode": p.mode,
                "out_channel": p.out_channel, "pad": tuple(p.pad), "pad_mode": p.pad_mode,
                "format": p.data_format, "pad_list": tuple(p.pad), "groups": p.group,
                "group": p.group, "stride": tuple(p.stride), "dilation": tuple(p.dilation),
                "input_names": ["x", "w"], "output_names": ["output"]}

    def conv_build(a: dict[str, Any], _: list[Any]) -> Any:
        return P.Conv2D(a["out_channel"], tuple(a["kernel_size"]), a["mode"], a["pad_mode"],
                        tuple(a["pad"]), tuple(a["stride"]), tuple(a["dilation"]), a["group"],
                        a["format"])

    def max_pool_attrs(p: Any) -> dict[str, Any]:
        return {"pad_mode": p.pad_mode, "kernel_size": tuple(p.kernel_size),
                "strides": tuple(p.strides), "format": p.data_format,
                "input_names": ["x"], "output_names": ["output"]}

    def avg_pool_consts(n: Node) -> list[Any]:
        p = n.prim
        return [tuple(p.kernel_size[2:]), tuple(p.strides[2:]), _PAD_MODES[p.pad_mode], _NCHW]

    def avg_pool_build(_: dict[str, Any], c: list[Any]) -> Any:
        mode = {v: k for k, v in _PAD_MODES.items()}[c[2]]
        return P.AvgPool(tuple(c[0]), tuple(c[1]), mode)

    def batch_norm_consts(n: Node) -> list[Any]:
        p = n.prim
        return [bool(p.is_training), float(p.epsilon), float(p.momentum), _NCHW]

    forms = {name: simple(getattr(P, name)) for name in (
        "ReLU", "Add", "Sub", "Mul", "RealDiv", "Maximum", "Minimum", "Exp", "Log", "Sqrt",
        "Neg", "Abs", "Sigmoid", "Tanh")}
    forms.update({
        "Conv2D": OpForm("Conv2D", False, conv_attrs, no_consts, conv_build),
        "MaxPool": OpForm("MaxPool", False, max_pool_attrs, no_consts, lambda a, c: P.MaxPool(
            tuple(a["kernel_size"][2:]), tuple(a["strides"][2:]), a["pad_mode"])),
        "AvgPool": OpForm("AvgPool", True, none, avg_pool_consts, avg_pool_build),
        "MatMul": OpForm("MatMul", True, none,
                         lambda n: [bool(n.prim.transpose_a), bool(n.prim.transpose_b)],
                         lambda a, c: P.MatMul(c[0], c[1])),
        "BiasAdd": OpForm("BiasAdd", True, none, lambda n: [_NCHW], lambda a, c: P.BiasAdd()),
        "BatchNorm": OpForm("BatchNorm", True, none, batch_norm_consts,
                            lambda a, c: P.BatchNorm(c[0], c[1], c[2])),
        "Reshape": OpForm("Reshape", True, none, lambda n: [tuple(n.outputs[0].shape)],
                          lambda a, c: P.Reshape()),
        "Softmax": OpForm("Softmax", True, none, lambda n: [tuple(n.prim.axis)],
                          lambda a, c: P.Softmax(tuple(c[0]))),
    })
    return forms


_OPS: dict[str, OpForm] = {}


def ops_table() -> dict[str, OpForm]:
    """The primitives that convert to MindIR, by ember name (built on first use)."""
    if not _OPS:
        _OPS.update(_ops())
    return _OPS


# -- attributes ---------------------------------------------------------------------------------
def _set(attr: Any, value: Any) -> None:
    """Fill an AttributeProto with a Python value, as MindSpore writes it."""
    if isinstance(value, bool):
        attr.type, attr.i = T["BOOL"], int(value)
    elif isinstance(value, int):
        attr.type, attr.i = T["INT64"], value
    elif isinstance(value, float):
        attr.type, attr.f = T["FLOAT"], value
    elif isinstance(value, str):
        attr.type, attr.s = T["STRING"], value.encode()
    elif isinstance(value, tuple | list):
        attr.type = T["TUPLE"] if isinstance(value, tuple) else T["LIST"]
        for item in value:
            element = attr.values.add()
            if isinstance(item, str):
                element.type = T["STRING"]
                element.strings.append(item.encode())
            elif isinstance(item, int) and not isinstance(item, bool):
                element.type = T["INT64"]
                element.ints.append(item)
            else:
                _set(element, item)
    else:
        raise TypeError(f"MindIR: cannot write the attribute value {value!r}")


def _get(attr: Any) -> Any:
    """The Python value of an AttributeProto."""
    kind = attr.type
    if kind == T["BOOL"]:
        return bool(attr.i)
    if kind == T["INT64"]:
        return int(attr.i)
    if kind == T["FLOAT"]:
        return float(np.float32(attr.f))
    if kind == T["DOUBLE"]:
        return float(attr.d)
    if kind == T["STRING"]:
        return attr.s.decode()
    if kind in (T["TUPLE"], T["LIST"]):
        items = []
        for v in attr.values:
            if v.ints:
                items.append(int(v.ints[0]))
            elif v.strings:
                items.append(v.strings[0].decode())
            else:
                items.append(_get(v))
        return tuple(items) if kind == T["TUPLE"] else items
    raise ValueError(f"MindIR: attribute {attr.name!r} has a type ember does not read "
                     f"({kind})")


def _tensor_spec(proto: Any, shape: tuple[int, ...], dtype: mstype.Type) -> None:
    proto.dims.extend(shape)
    proto.data_type = _DATA_TYPES[dtype.name]


# -- writing ------------------------------------------------------------------------------------
def to_mindir(graph: Graph) -> bytes:
    """The serialized ``ModelProto`` of an inference ``graph``."""
    from ember import __version__

    table = ops_table()
    missing = sorted({n.prim.name for n in graph.nodes if n.prim.name not in table})
    if missing:
        raise ValueError(f"export(file_format='MINDIR'): primitive {', '.join(missing)} has no "
                         f"MindIR form in ember; the primitives that export are: "
                         f"{', '.join(sorted(table))}")
    model = ModelProto(ir_version="1.1", producer_name="ember", producer_version=__version__,
                       model_version=__version__, little_endian=True, mind_ir_version=3)
    g = model.graph
    g.name = prefix = graph.name
    names: dict[int, str] = {}
    for i, v in enumerate(graph.inputs):
        names[v.id] = f"{prefix}:x{i}"
        info = g.input.add(name=names[v.id])
        _tensor_spec(info.tensor.add(), v.shape, v.dtype)
    for v in (*graph.params, *graph.consts):
        name = v.param.name if v.kind == "param" else f"const{v.id}"
        names[v.id] = f"{prefix}:{name}"
        array = v.param.asnumpy() if v.kind == "param" else v.array
        tensor = g.parameter.add(name=names[v.id], ref_key=name,
                                 raw_data=np.ascontiguousarray(array).astype(
                                     array.dtype.newbyteorder("<")).tobytes())
        _tensor_spec(tensor, v.shape, v.dtype)
    prims: dict[tuple, str] = {}
    constants = 0
    for node in graph.nodes:
        form = table[node.prim.name]
        attrs = form.attrs(node.prim)
        key = (form.op_type, repr(sorted(attrs.items())))
        if key not in prims:
            prims[key] = f"{form.op_type}:{len(prims)}"
            proto = model.primitives.add(name=prims[key], op_type=form.op_type,
                                         prim_type=2 if form.function else 1)
            for attr_name, value in attrs.items():
                _set(proto.attribute.add(name=attr_name), value)
        inputs = [names[x.id] for x in node.tensor_inputs()]
        for value in form.consts(node):
            const = g.node.add(name=f"ValueNode_{constants}", op_type="Constant",
                               output=[f"ValueNode_{constants}"])
            _set(const.attribute.add(name="value"), value)
            inputs.append(const.name)
            constants += 1
        out = f"{prefix}:{node.scope}"
        proto_node = g.node.add(name=out, output=[out], op_type=f"REF::{prims[key]}",
                                input=inputs, domain=node.scope)
        shape = proto_node.attribute.add(name="shape")
        if node.multi:  # a tuple, then its item 0 (BatchNorm's output)
            shape.type = T["TUPLE"]
            for v in node.outputs:
                item = shape.values.add(type=T["TENSORS"])
                _tensor_spec(item.tensors.add(), v.shape, v.dtype)
            out = _item_zero(model, g, node, out, prims, constants)
            constants += 1
        else:
            shape.type = T["TENSORS"]
            _tensor_spec(shape.tensors.add(), node.outputs[0].shape, node.outputs[0].dtype)
        names[node.outputs[0].id] = out
    for i, v in enumerate(graph.outputs):
        if not isinstance(v, Value):
            raise ValueError(f"export(file_format='MINDIR'): output {i} of the network is the "
                             f"Python value {v!r}; MindIR graphs return tensors")
        if v.kind == "node" and v.index != 0:
            raise ValueError(f"export(file_format='MINDIR'): output {i} is output {v.index} of "
                             f"{v.node.prim.name}; only its first output is written")
        info = g.output.add(name=names[v.id])
        _tensor_spec(info.tensor.add(), v.shape, v.dtype)
    return model.SerializeToString()


def _item_zero(model: Any, g: Any, node: Node, tuple_name: str, prims: dict[tuple, str],
               constants: int) -> str:
    """A ``TupleGetItem(tuple, 0)`` node after a multi-output node; its output's name."""
    key = ("TupleGetItem", "[]")
    if key not in prims:
        prims[key] = f"TupleGetItem:{len(prims)}"
        model.primitives.add(name=prims[key], op_type="TupleGetItem", prim_type=1)
    const = g.node.add(name=f"ValueNode_{constants}", op_type="Constant",
                       output=[f"ValueNode_{constants}"])
    _set(const.attribute.add(name="value"), 0)
    name = f"{tuple_name}:0"
    item = g.node.add(name=name, output=[name], op_type=f"REF::{prims[key]}",
                      input=[tuple_name, const.name], domain=node.scope)
    shape = item.attribute.add(name="shape", type=T["TENSORS"])
    _tensor_spec(shape.tensors.add(), node.outputs[0].shape, node.outputs[0].dtype)
    return name


# -- reading ------------------------------------------------------------------------------------
def load(file_name: str | os.PathLike[str]) -> Graph:
    """The graph of a MindIR file (``ember.load``): run it with ``nn.GraphCell(graph)``."""
    path = os.fspath(file_name)
    if not os.path.isfile(path):
        raise ValueError(f"load: MindIR file {path!r} does not exist")
    model = ModelProto()
    try:
        with open(path, "rb") as f:
            model.ParseFromString(f.read())
    except Exception as exc:  # protobuf's DecodeError and its C implementation's
        raise ValueError(f"load: {path!r} is not a MindIR file: {exc}") from None
    return _Reader(model, path).graph


class _Reader:
    def __init__(self, model: Any, path: str) -> None:
        self.where = f"MindIR file {path!r}"
        self.prims = {p.name: p for p in model.primitives}
        by_type = {form.op_type: form for form in ops_table().values()}
        g = model.graph
        self.graph = graph = Graph(g.name or "mindir")
        self.values: dict[str, Any] = {}
        for info in g.input:
            v = self._value("input", info.tensor[0], index=len(graph.inputs))
            graph.inputs.append(v)
            self.values[info.name] = v
        for tensor in g.parameter:
            dtype = self._dtype(tensor)
            array = np.frombuffer(tensor.raw_data, dtype.np_dtype.newbyteorder("<")).reshape(
                tuple(tensor.dims)).astype(dtype.np_dtype)
            param = Parameter(array.copy(), name=tensor.ref_key or tensor.name)
            v = Value(graph.new_id(), "param", tuple(tensor.dims), dtype,
                      index=len(graph.params), param=param)
            graph.params.append(v)
            self.values[tensor.name] = v
        for node in g.node:
            self._node(node, by_type)
        for info in g.output:
            graph.outputs.append(self._input(info.name))
        if len(graph.outputs) > 1:
            graph.out_tree = (tuple, [(i, None) for i in range(len(graph.outputs))])

    def _dtype(self, tensor: Any) -> mstype.Type:
        if tensor.data_type not in _BY_CODE:
            raise ValueError(f"{self.where}: tensor {tensor.name!r} has data_type "
                             f"{tensor.data_type}, which ember does not read")
        return _BY_CODE[tensor.data_type]

    def _value(self, kind: str, tensor: Any, **more: Any) -> Value:
        return Value(self.graph.new_id(), kind, tuple(tensor.dims), self._dtype(tensor),
                     **more)

    def _input(self, name: str) -> Any:
        if name not in self.values:
            raise ValueError(f"{self.where}: {name!r} is used before it is defined")
        return self.values[name]

    def _node(self, node: Any, by_type: dict[str, OpForm]) -> None:
        if node.op_type == "Constant":
            self.values[node.output[0]] = _get(node.attribute[0])
            return
        prim_proto = self.prims.get(node.op_type.removeprefix("REF::"))
        if prim_proto is None:
            raise ValueError(f"{self.where}: node {node.name!r} has op_type {node.op_type!r}, "
                             "which is not in its primitives")
        inputs = [self._input(name) for name in node.input]
        if prim_proto.op_type == "TupleGetItem":
            self.values[node.output[0]] = inputs[0][inputs[1]]
            return
        form = by_type.get(prim_proto.op_type)
        if form is None:
            raise ValueError(f"{self.where}: primitive {prim_proto.op_type} has no ember form; "
                             f"ember reads: {', '.join(sorted(by_type))}")
        tensors = [x for x in inputs if isinstance(x, Value)]
        consts = inputs[len(tensors):]
        prim = form.build({a.name: _get(a) for a in prim_proto.attribute}, consts)
        if form.op_type == "Reshape":
            tensors.append(tuple(consts[0]))
        scope = node.domain or node.name
        out = Node(self.graph.new_id(), prim, tensors, scope=scope, source=self.where)
        shape = node.attribute[0]
        if shape.type == T["TUPLE"]:
            out.multi = True
            out.outputs = [self._value("node", v.tensors[0], node=out, index=i)
                           for i, v in enumerate(shape.values)]
            self.values[node.output[0]] = tuple(out.outputs)
        else:
            out.outputs = [self._value("node", shape.tensors[0], node=out)]
            self.values[node.output[0]] = out.outputs[0]
        self.graph.nodes.append(out)
