"""The on-disk graph cache: JSON round trips, parameter binding, corruption and tampering."""

from __future__ import annotations

import json
import math
import os
import pickle

import numpy as np
import pytest

import ember
from ember import Parameter, Tensor, context, ops
from ember.common import dtype as mstype
from ember.graph.ir import Graph, Node, Value, flatten, unflatten
from ember.graph.serialize import NotSerializable, cache_key, load_graph, save_graph
from ember.ops.operations import activation_ops, nn_ops
from ember.ops.primitive import Primitive, run

RNG = np.random.default_rng(0)


@pytest.fixture(autouse=True)
def _pynative():
    context.set_context(mode=context.PYNATIVE_MODE)


# -- building graphs by hand ----------------------------------------------------------------
class Builder:
    """A graph made node by node; each node's outputs come from its primitive's ``infer``."""

    def __init__(self, name: str = "net") -> None:
        self.graph = Graph(name)
        self.count = 0

    def _value(self, kind: str, shape: tuple, dtype: mstype.Type, **more) -> Value:
        return Value(self.graph.new_id(), kind, tuple(shape), dtype, **more)

    def input(self, shape: tuple, dtype: mstype.Type = mstype.float32) -> Value:
        v = self._value("input", shape, dtype, index=len(self.graph.inputs))
        self.graph.inputs.append(v)
        return v

    def param(self, p: Parameter) -> Value:
        v = self._value("param", p.shape, p.dtype, index=len(self.graph.params), param=p)
        self.graph.params.append(v)
        return v

    def const(self, array: np.ndarray) -> Value:
        v = self._value("const", array.shape, mstype.from_numpy(array.dtype), array=array)
        self.graph.consts.append(v)
        return v

    def op(self, prim: Primitive, *inputs, spec=None):
        if spec is None:
            spec = prim.infer(*(Tensor._make(a, a.dtype, a.shape, None) if isinstance(a, Value)
                                else a for a in inputs))
        multi = type(spec) is list
        node = Node(self.graph.new_id(), prim, list(inputs), multi=multi,
                    scope=f"Default/block-Cell/{prim.name}-op{self.count}",
                    source=f"model.py:{10 + self.count}")
        self.count += 1
        node.outputs = [self._value("node", shape, dtype, node=node, index=i)
                        for i, (shape, dtype) in enumerate(spec if multi else [spec])]
        self.graph.nodes.append(node)
        return tuple(node.outputs) if multi else node.outputs[0]

    def ret(self, out) -> Graph:
        self.graph.outputs, self.graph.out_tree = flatten(out, lambda v: False)
        return self.graph


def interpret(graph: Graph, inputs: list[Tensor]):
    """Run ``graph`` eagerly, one primitive at a time: the reference semantics of the IR."""
    env: dict[int, Tensor] = {v.id: x for v, x in zip(graph.inputs, inputs, strict=True)}
    env.update((v.id, v.param) for v in graph.params)
    env.update((v.id, Tensor(v.array)) for v in graph.consts)
    for node in graph.nodes:
        args = tuple(env[a.id] if isinstance(a, Value) else a for a in node.inputs)
        specs = [(o.shape, o.dtype) for o in node.outputs]
        out = run(node.prim, args, specs if node.multi else specs[0])
        env.update((o.id, t) for o, t in zip(node.outputs, out if node.multi else (out,)))
    leaves = [env[o.id] if isinstance(o, Value) else o for o in graph.outputs]
    return unflatten(graph.out_tree, leaves)


def randn(*shape, dtype=np.float32) -> np.ndarray:
    return RNG.standard_normal(shape).astype(dtype)


def make_params() -> dict[str, Parameter]:
    return {"conv1.weight": Parameter(Tensor(randn(4, 2, 3, 3)), name="conv1.weight"),
            "bn.gamma": Parameter(Tensor(randn(4)), name="bn.gamma"),
            "bn.beta": Parameter(Tensor(randn(4)), name="bn.beta"),
            "counter": Parameter(Tensor(np.zeros((4,), np.float32)), name="counter")}


def make_net(params: dict[str, Parameter]) -> Graph:
    """A graph with every kind of value, tuple/dtype attributes, inline inputs of several
    kinds, multi-output nodes, nested primitives, a side effect and nested outputs."""
    b = Builder("construct")
    x = b.input((2, 2, 6, 6))
    labels = b.input((2,), mstype.int32)
    w, gamma, beta, counter = (b.param(params[k]) for k in
                               ("conv1.weight", "bn.gamma", "bn.beta", "counter"))
    scale = b.const(np.array(0.5, np.float32))
    stats = b.const(np.array([0.0, 0.1, 0.2, 0.3], np.float32))
    conv = ops.Conv2D(4, 3, pad_mode="pad", pad=(1, 1, 0, 0))
    conv._sibling(nn_ops.Conv2DBackpropInput)  # a cache that is not saved
    y = b.op(conv, x, w)  # (2, 4, 6, 4)
    y = b.op(ops.Mul(), y, scale)
    bn_out = b.op(ops.BatchNorm(is_training=True), y, gamma, beta, stats, stats)
    y = b.op(ops.ReLU(), bn_out[0])
    sliced = b.op(ops.StridedSlice(begin_mask=1, end_mask=1), y, (0, 1, 0, 0), (2, 3, 6, 4),
                  (1, 1, 2, 1))  # (2, 2, 3, 4)
    summed = b.op(ops.ReduceSum(keep_dims=True), sliced, (2, 3))
    flat = b.op(ops.Reshape(), summed, (2, 2))
    logp = b.op(ops.LogSoftmax(axis=-1), flat)
    loss = b.op(ops.SparseSoftmaxCrossEntropyWithLogits(), flat, labels)
    as64 = b.op(ops.Cast(), logp, ember.float64)
    index, best = b.op(ops.ArgMaxWithValue(axis=1, keep_dims=True), as64)
    arg = b.op(ops.Argmax(axis=0, output_type=ember.int64), flat)
    b.op(ops.Assign(), counter, bn_out[1], spec=(counter.shape, counter.dtype))
    return b.ret((loss, [index, best, (arg, stats)], 1.5, None, "tag", ember.float16))


def assert_same(a, b) -> None:
    if isinstance(a, tuple | list):
        assert type(a) is type(b) and len(a) == len(b)
        for i, j in zip(a, b):
            assert_same(i, j)
    elif isinstance(a, Tensor):
        assert isinstance(b, Tensor) and a.shape == b.shape and a.dtype is b.dtype
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    else:
        assert type(a) is type(b) and a == b


def clone(params: dict[str, Parameter]) -> dict[str, Parameter]:
    return {k: Parameter(Tensor(p.asnumpy().copy()), name=k) for k, p in params.items()}


def structure(graph: Graph) -> list:
    """Everything a graph holds, as comparable plain data."""

    def value(v):
        return (v.id, v.kind, v.shape, v.dtype, v.index)

    def inline(x):
        if isinstance(x, Value):
            return ("value", x.id)
        if isinstance(x, np.ndarray):
            return ("array", x.dtype.str, x.shape, x.tobytes())
        return (type(x), x)

    return [graph.name, graph._next_id, [value(v) for v in graph.inputs],
            [(*value(v), v.param.name) for v in graph.params],
            [(*value(v), v.array.dtype, v.array.tobytes()) for v in graph.consts],
            [(n.id, type(n.prim), n.prim.attrs, [inline(x) for x in n.inputs],
              [(*value(v), v.node.id) for v in n.outputs], n.scope, n.source, n.multi)
             for n in graph.nodes],
            [inline(x) for x in graph.outputs], graph.out_tree]


# -- round trips ----------------------------------------------------------------------------
def test_round_trip_keeps_everything(tmp_path):
    params = make_params()
    graph = make_net(params)
    path = tmp_path / "net.graph"
    save_graph(graph, path)
    loaded = load_graph(path, params)
    assert structure(loaded) == structure(graph)
    # values are shared objects again: a node's input is the producer's very output Value
    produced = {v.id: v for n in loaded.nodes for v in n.outputs}
    for node in loaded.nodes:
        for x in node.tensor_inputs():
            if x.kind == "node":
                assert x is produced[x.id] and x.node.outputs[x.index] is x
    assert [v.param for v in loaded.params] == list(params.values())
    assert isinstance(loaded.out_tree[1][1][1][0], type)  # (list, [...]) kinds survive
    assert loaded.consts[0].array.flags.writeable


def test_primitive_attributes_round_trip(tmp_path):
    params = make_params()
    graph = make_net(params)
    save_graph(graph, tmp_path / "g")
    prims = {n.prim.name: n.prim for n in load_graph(tmp_path / "g", params).nodes}
    conv = prims["Conv2D"]
    assert type(conv) is nn_ops.Conv2D
    assert conv.pad == (1, 1, 0, 0) and conv.stride == (1, 1, 1, 1) and conv.kernel_size == (3, 3)
    assert "_made" not in vars(conv) and conv._kernel is None and conv._kernel_owner is None
    assert prims["Argmax"].output_type is ember.int64
    assert prims["StridedSlice"]._masks == (1, 1, 0, 0, 0)
    bn = prims["BatchNorm"]
    assert type(bn._grad) is nn_ops.BatchNormGrad and bn._grad.is_training is True
    assert type(prims["LogSoftmax"]._softmax) is nn_ops.Softmax
    assert prims["LogSoftmax"]._softmax.axis == (-1,)


def test_shared_primitive_stays_shared(tmp_path):
    b = Builder()
    x = b.input((3,))
    add = ops.Add()
    y = b.op(add, b.op(add, x, x), x)
    save_graph(b.ret(y), tmp_path / "g")
    nodes = load_graph(tmp_path / "g", {}).nodes
    assert nodes[0].prim is nodes[1].prim


@pytest.mark.parametrize("value", [
    None, True, 0, -7, 2**70, 0.1, -0.0, math.inf, -math.inf, "s", "", (), (1, (2, 3)), [1, [2]],
    {"a": 1, (1, 2): [ember.int8], 3: None}, ember.bool_, ember.uint64,
    np.float32(1.25), np.int64(-3), np.bool_(True), np.arange(6, dtype=np.int16).reshape(2, 3),
])
def test_inline_values_round_trip(tmp_path, value):
    b = Builder()
    x = b.input((2, 3))
    b.op(ops.Identity().add_prim_attr("extra", value), x)
    save_graph(b.ret([x, value]), tmp_path / "g")
    loaded = load_graph(tmp_path / "g", {})
    for got in (loaded.nodes[0].prim.extra, unflatten(loaded.out_tree, loaded.outputs)[1]):
        if isinstance(value, np.ndarray | np.generic):
            assert type(got) is type(value) and got.dtype == value.dtype
            np.testing.assert_array_equal(got, value)
        else:
            assert type(got) is type(value) and got == value and repr(got) == repr(value)


def test_nan_round_trips(tmp_path):
    b = Builder()
    x = b.input(())
    save_graph(b.ret((x, math.nan)), tmp_path / "g")
    assert math.isnan(load_graph(tmp_path / "g", {}).outputs[1])


def test_const_arrays_of_every_dtype(tmp_path):
    b = Builder()
    arrays = [np.arange(6).reshape(2, 3).astype(t.np_dtype) for t in mstype.all_types]
    arrays.append(np.zeros((0, 4), np.float32))
    arrays.append(np.asfortranarray(randn(3, 4)))
    values = [b.const(a) for a in arrays]
    save_graph(b.ret(tuple(values)), tmp_path / "g")
    loaded = load_graph(tmp_path / "g", {})
    for v, a in zip(loaded.consts, arrays, strict=True):
        assert v.array.dtype == a.dtype and v.array.shape == a.shape
        np.testing.assert_array_equal(v.array, a)


# -- running the loaded graph ---------------------------------------------------------------
def test_loaded_graph_runs_identically(tmp_path):
    params = make_params()
    graph = make_net(params)
    save_graph(graph, tmp_path / "g")
    fresh = clone(params)  # parameters re-bound by name to other objects
    loaded = load_graph(tmp_path / "g", fresh)
    assert all(v.param is fresh[v.param.name] for v in loaded.params)
    inputs = [Tensor(randn(2, 2, 6, 6)), Tensor(np.array([1, 0], np.int32))]
    want = interpret(graph, inputs)
    got = interpret(loaded, inputs)
    assert_same(got, want)
    assert want[2:] == (1.5, None, "tag", ember.float16)
    # the side effect reached the parameters each graph is bound to
    np.testing.assert_array_equal(fresh["counter"].asnumpy(), params["counter"].asnumpy())
    assert np.any(params["counter"].asnumpy() != 0)


def test_primitives_of_every_operations_module_round_trip(tmp_path):
    b = Builder()
    x = b.input((2, 3))
    y = b.op(ops.Sin(), x)  # elementwise_ops
    dy = b.op(activation_ops.EluGrad(), y, x)  # a backward primitive, in activation_ops
    graph = b.ret((y, dy))
    save_graph(graph, tmp_path / "g")
    loaded = load_graph(tmp_path / "g", {})
    assert [type(n.prim) for n in loaded.nodes] == [type(n.prim) for n in graph.nodes]
    data = Tensor(randn(2, 3))
    assert_same(interpret(loaded, [data]), interpret(graph, [data]))


# -- parameters -----------------------------------------------------------------------------
def test_missing_parameter_is_named(tmp_path):
    params = make_params()
    save_graph(make_net(params), tmp_path / "g")
    del params["bn.beta"]
    with pytest.raises(ValueError, match=r"Parameter 'bn.beta'.*not among the parameters given"):
        load_graph(tmp_path / "g", params)


def test_changed_parameter_is_named(tmp_path):
    params = make_params()
    save_graph(make_net(params), tmp_path / "g")
    params["bn.gamma"] = Parameter(Tensor(randn(5)), name="bn.gamma")
    with pytest.raises(ValueError, match=r"'bn.gamma' has shape \[5\]"):
        load_graph(tmp_path / "g", params)


def test_parameters_sharing_a_name_are_not_cached(tmp_path):
    b = Builder()
    p1 = b.param(Parameter(Tensor(randn(2)), name="w"))
    p2 = b.param(Parameter(Tensor(randn(2)), name="w"))
    with pytest.raises(NotSerializable, match="share the name 'w'"):
        save_graph(b.ret(b.op(ops.Add(), p1, p2)), tmp_path / "g")
    assert not (tmp_path / "g").exists()


# -- what cannot be cached ------------------------------------------------------------------
class Frobnicate(Primitive):
    def infer(self, x):
        return x.shape, x.dtype


def test_primitive_from_elsewhere_is_not_serializable(tmp_path):
    b = Builder()
    x = b.input((2,))
    with pytest.raises(NotSerializable, match="Frobnicate"):
        save_graph(b.ret(b.op(Frobnicate(), x)), tmp_path / "g")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("attr", [lambda g: g, object(), {1, 2}, b"bytes", np.array([object()])])
def test_primitive_holding_non_data_is_not_serializable(tmp_path, attr):
    prim = ops.ReLU()
    prim.callback = attr
    b = Builder()
    x = b.input((2,))
    with pytest.raises(NotSerializable, match=r"ReLU.*'callback'") as info:
        save_graph(b.ret(b.op(prim, x)), tmp_path / "g")
    assert isinstance(info.value, ValueError)
    assert list(tmp_path.iterdir()) == []


def test_inline_input_that_is_not_data_is_not_serializable(tmp_path):
    b = Builder()
    x = b.input((2,))
    b.op(ops.Identity(), x, object(), spec=((2,), mstype.float32))
    with pytest.raises(NotSerializable, match="Identity-op0"):
        save_graph(b.ret(x), tmp_path / "g")


def test_namedtuple_output_is_not_serializable(tmp_path):
    b = Builder()
    x = b.input((2,))
    graph = b.ret(x)
    graph.out_tree = (os.stat_result, [(0, None)])
    with pytest.raises(NotSerializable, match="stat_result"):
        save_graph(graph, tmp_path / "g")


# -- corruption and tampering ---------------------------------------------------------------
def saved(tmp_path) -> tuple:
    params = make_params()
    path = tmp_path / "net.graph"
    save_graph(make_net(params), path)
    return path, params


def rewrite(path, edit) -> None:
    """Edit the JSON document of a cache file and write it back with a valid checksum."""
    import hashlib

    head, body = path.read_bytes().split(b"\n", 1)
    doc = json.loads(body)
    edit(doc)
    body = json.dumps(doc).encode()
    magic, version, _ = head.split(b" ")
    path.write_bytes(b"%s %s %s\n" % (magic, version, hashlib.sha256(body).hexdigest().encode())
                     + body)


@pytest.mark.parametrize("cut", [0, 5, 40, 0.5, -1])
def test_truncated_file_is_a_value_error_naming_it(tmp_path, cut):
    path, params = saved(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[:int(len(data) * cut) if isinstance(cut, float) else cut])
    with pytest.raises(ValueError, match=str(path.name)):
        load_graph(path, params)


def test_flipped_byte_is_detected(tmp_path):
    path, params = saved(tmp_path)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=rf"{path.name}.*corrupted"):
        load_graph(path, params)


def test_pickle_is_not_read(tmp_path):
    path, params = saved(tmp_path)
    path.write_bytes(pickle.dumps({"not": "a graph"}))
    with pytest.raises(ValueError, match="not an ember graph cache file"):
        load_graph(path, params)


@pytest.mark.parametrize("name", [
    "os.system", "builtins.eval", "nn_ops.Tensor", "nn_ops._Family", "nn_ops.F",
    "primitive.Primitive", "nn_ops.Parameter", "optim_ops.Parameter", "debug_ops.Print",
    "nn_ops.__class__", "nn_ops", "math_ops.os.system",
])
def test_tampered_class_is_rejected(tmp_path, name):
    path, params = saved(tmp_path)

    def edit(doc):
        doc["prims"][0]["class"] = name

    rewrite(path, edit)
    with pytest.raises(ValueError, match=rf"{path.name}.*is not a primitive of"):
        load_graph(path, params)


@pytest.mark.parametrize("edit", [
    lambda d: d["prims"][0]["attrs"].update(_kernel={"$t": "tuple", "v": []}),
    lambda d: d["prims"][0]["attrs"].update(x={"$t": "pickle", "v": "..."}),
    lambda d: d["prims"][0]["attrs"].update(x={"$t": "dtype", "v": "object"}),
    lambda d: d["consts"][0]["array"].update(dtype="|O"),
    lambda d: d["consts"][0]["array"].update(shape=[1000]),
    lambda d: d["consts"][0]["array"].update(data="***"),
    lambda d: d["nodes"][0]["inputs"].append({"$t": "value", "v": 10**6}),
    lambda d: d["nodes"][0].update(prim=999),
    lambda d: d["nodes"][0].pop("scope"),
    lambda d: d.update(out_tree={"kind": "set", "items": []}),
    lambda d: d["inputs"].append(d["inputs"][0]),
])
def test_malformed_document_is_a_value_error(tmp_path, edit):
    path, params = saved(tmp_path)
    rewrite(path, edit)
    with pytest.raises(ValueError, match=rf"{path.name}: invalid graph cache file"):
        load_graph(path, params)


def test_save_is_atomic_and_replaces(tmp_path):
    path, params = saved(tmp_path)
    b = Builder("other")
    save_graph(b.ret(b.input((1,))), path)
    assert load_graph(path, params).name == "other"
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left


def test_failed_save_keeps_the_old_file(tmp_path):
    path, params = saved(tmp_path)
    before = path.read_bytes()
    b = Builder()
    x = b.input((2,))
    with pytest.raises(NotSerializable):
        save_graph(b.ret(b.op(Frobnicate(), x)), path)
    assert path.read_bytes() == before


# -- cache keys -----------------------------------------------------------------------------
def test_cache_key():
    sig = (((2, 3), ember.float32), 1, "x")
    key = cache_key("def f(x): return x", sig, ("CPU", 1))
    assert len(key) == 64 and int(key, 16) >= 0
    assert key == cache_key("def f(x): return x", sig, ("CPU", 1))
    for other in [cache_key("def f(x): return x + 1", sig, ("CPU", 1)),
                  cache_key("def f(x): return x", (((2, 3), ember.float16), 1, "x"), ("CPU", 1)),
                  cache_key("def f(x): return x", (((2, 3), ember.float32), True, "x"),
                            ("CPU", 1)),
                  cache_key("def f(x): return x", (([2, 3], ember.float32), 1, "x"), ("CPU", 1)),
                  cache_key("def f(x): return x", sig, ("GPU", 1))]:
        assert other != key
