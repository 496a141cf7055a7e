"""The on-disk compile cache of front-end graphs, in JSON (never pickle, never eval).

A file is one header line ``EMBER-GRAPH <version> <sha256 of the rest>`` and a JSON document.
Primitives are stored as their class (``"nn_ops.Conv2D"``: only public subclasses of
``Primitive`` defined in ``ember.ops.operations``) and instance attributes; constants as
base64 bytes; parameters by name, bound again on load. Python values (attributes, non-tensor
inputs, outputs) are plain JSON for None, bool, int, finite float, str and list, and tagged
objects ``{"$t": tag, ...}`` for the rest: tuple, dict, dtype, non-finite float, NumPy array
or scalar, nested primitive, graph value.

The cache is trusted input, like the script that fills it: the checksum catches damage, not a
consistent edit. What a load checks is that the graph is well formed: every node's output shape
and dtype are inferred again from its inputs and must be those stored, and the constants, the
parameters and (in ``ember.graph.compiler``) the inputs must have the shapes and dtypes stored.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import importlib
import json
import math
import os
import pkgutil
from pathlib import Path
from typing import Any

import numpy as np

from ember._files import new_temporary
from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.graph import control_flow
from ember.graph.ir import Graph, Node, Value, subgraphs
from ember.ops import operations
from ember.ops.primitive import Primitive

__all__ = ["NotSerializable", "cache_key", "load_graph", "save_graph", "write_atomic"]

VERSION = 1
_MAGIC = b"EMBER-GRAPH"
_PACKAGE = "ember.ops.operations"
#: The modules of ``ember.ops.operations`` whose primitives a file may name: every public one.
_MODULES = frozenset(m.name for m in pkgutil.iter_modules(operations.__path__)
                     if not m.name.startswith("_"))
#: Instance attributes that are caches, rebuilt on demand (the backward primitives of
#: ``Primitive._derived`` and ``_Family._sibling``, the outputs ``Primitive.__call__`` inferred).
_CACHES = frozenset({"_made", "_specs"})
_DTYPES = {t.name: t for t in mstype.all_types}
_ARRAY_KINDS = "biufc"  # NumPy dtype kinds a stored array may have (no objects)
_CONTROL_FLOW = {"control_flow.Switch": control_flow.Switch,
                 "control_flow.WhileLoop": control_flow.WhileLoop,
                 "control_flow.ReverseScan": control_flow.ReverseScan}


class NotSerializable(ValueError):
    """The graph holds something that is not plain data; it is not cached."""


class _Unbound(ValueError):
    """A parameter the cached graph reads is missing or changed."""


def write_atomic(path: str | os.PathLike[str], data: bytes, durable: bool = True) -> None:
    """Write ``data`` to ``path`` through a temporary file and ``os.replace``: readers see the
    old file or the whole new one. ``durable`` also syncs the data to disk first."""
    fd, temp = new_temporary(path)
    try:
        with os.fdopen(fd, "wb") as f:
            if hasattr(os, "fchmod"):
                os.fchmod(f.fileno(), 0o644)  # mkstemp makes it private to its owner
            f.write(data)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def cache_key(source_text: str, signature: tuple, extra: tuple) -> str:
    """The sha256 (hex) naming a cached graph: the function's source, its input signature
    (shapes, dtypes, Python values) and ``extra`` (context settings, versions)."""
    text = json.dumps([VERSION, source_text, _key_part(signature), _key_part(extra)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _key_part(x: Any) -> Any:
    if isinstance(x, tuple | list):
        return [type(x).__name__, [_key_part(i) for i in x]]
    if isinstance(x, dict):
        return ["dict", [[_key_part(k), _key_part(v)] for k, v in x.items()]]
    if x is None or type(x) in (bool, int, str) or type(x) is float and math.isfinite(x):
        return x
    return f"{type(x).__module__}.{type(x).__qualname__}:{x!r}"


# -- saving ---------------------------------------------------------------------------------
def _array(a: np.ndarray) -> dict[str, Any]:
    if a.dtype.kind not in _ARRAY_KINDS:
        raise NotSerializable(f"an array of dtype {a.dtype} is not plain data")
    return {"dtype": a.dtype.str, "shape": list(a.shape),
            "data": base64.b64encode(np.ascontiguousarray(a).tobytes()).decode("ascii")}


class _Encoder:
    def __init__(self) -> None:
        self.prims: list[dict[str, Any]] = []
        self.prim_index: dict[int, int] = {}
        self.values: set[int] = set()

    def prim(self, prim: Any) -> int:
        """The index of ``prim`` in the primitive table, adding it (once) if new."""
        found = self.prim_index.get(id(prim))
        if found is not None:
            return found
        cls = type(prim)
        module, _, short = cls.__module__.rpartition(".")
        name = getattr(prim, "name", cls.__name__)
        if cls in _CONTROL_FLOW.values():
            index = self.prim_index[id(prim)] = len(self.prims)
            self.prims.append({})  # its place, before the primitives of its subgraphs
            self.prims[index] = {"class": f"control_flow.{cls.__name__}",
                                 "count": getattr(prim, "count", None),
                                 "save": getattr(prim, "save", False),
                                 "graphs": [self.graph(g) for g in prim.graphs]}
            return index
        if not (isinstance(prim, Primitive) and module == _PACKAGE and short in _MODULES
                and not cls.__name__.startswith("_")
                and getattr(importlib.import_module(cls.__module__), cls.__name__, None) is cls):
            raise NotSerializable(f"primitive {name} ({cls.__module__}.{cls.__qualname__}) is "
                                  f"not a primitive of {_PACKAGE}; the graph is not cached")
        index = self.prim_index[id(prim)] = len(self.prims)
        entry: dict[str, Any] = {"class": f"{short}.{cls.__name__}"}
        self.prims.append(entry)
        attrs = {}
        for key, value in vars(prim).items():
            if key.startswith("_kernel") or key in _CACHES:
                continue
            try:
                attrs[key] = self.value(value)
            except NotSerializable as exc:
                raise NotSerializable(f"primitive {name}: attribute {key!r} cannot be "
                                      f"serialized: {exc}") from None
        entry["attrs"] = attrs
        return index

    def value(self, x: Any) -> Any:
        kind = type(x)
        if x is None or kind in (bool, int, str):
            return x
        if kind is float:
            return x if math.isfinite(x) else {"$t": "float", "v": repr(x)}
        if kind is list:
            return [self.value(i) for i in x]
        if kind is tuple:
            return {"$t": "tuple", "v": [self.value(i) for i in x]}
        if kind is dict:
            return {"$t": "dict", "v": [[self.value(k), self.value(v)] for k, v in x.items()]}
        if kind is mstype.Type:
            return {"$t": "dtype", "v": x.name}
        if kind is Value:
            if x.id not in self.values:
                raise ValueError(f"the graph uses {x!r}, which is not one of its values")
            return {"$t": "value", "v": x.id}
        if isinstance(x, np.ndarray | np.generic):
            return {"$t": "array" if kind is np.ndarray else "scalar", **_array(np.asarray(x))}
        if isinstance(x, Primitive):
            return {"$t": "prim", "v": self.prim(x)}
        raise NotSerializable(f"{kind.__qualname__} {_short_repr(x)} is not plain data")

    def spec(self, v: Value, **more: Any) -> dict[str, Any]:
        self.values.add(v.id)
        return {"id": v.id, "shape": list(v.shape), "dtype": v.dtype.name, **more}

    def graph(self, graph: Graph) -> dict[str, Any]:
        """A subgraph's inputs, constants, nodes and outputs."""
        return {"name": graph.name, "inputs": [self.spec(v, index=v.index) for v in graph.inputs],
                "consts": [self.spec(v, array=_array(np.asarray(v.array)))
                           for v in graph.consts],
                "nodes": [self.node(node) for node in graph.nodes],
                "outputs": [self.value(x) for x in graph.outputs]}

    def node(self, node: Node) -> dict[str, Any]:
        try:
            prim = self.prim(node.prim)
            inputs = [self.value(x) for x in node.inputs]
        except NotSerializable as exc:
            raise NotSerializable(f"node {node.scope} ({node.source}): {exc}") from None
        return {"id": node.id, "prim": prim, "inputs": inputs,
                "outputs": [self.spec(v, index=v.index) for v in node.outputs],
                "scope": node.scope, "source": node.source, "multi": node.multi}


def _short_repr(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


def _tree(tree: Any, enc: _Encoder) -> Any:
    if tree is None:
        return None
    kind, subtrees = tree
    items = [[offset, _tree(sub, enc)] for offset, sub in subtrees]
    if type(kind) is tuple:  # a dict: (dict, keys)
        return {"kind": "dict", "keys": enc.value(list(kind[1])), "items": items}
    if kind not in (tuple, list):
        raise NotSerializable(f"the graph returns a {kind.__qualname__}; only tuples, lists "
                              "and dicts of outputs are cached")
    return {"kind": kind.__name__, "items": items}


def save_graph(graph: Graph, path: str | os.PathLike[str]) -> None:
    """Write ``graph`` to ``path`` (atomically). Raises :class:`NotSerializable` naming what
    is not plain data (a primitive from outside ``ember.ops.operations``, a Python callback)."""
    enc = _Encoder()
    names: dict[str, int] = {}
    params = []
    for v in graph.params:
        name = getattr(v.param, "name", None)
        if not isinstance(name, str) or name in names:
            raise NotSerializable(f"the graph reads parameters that share the name {name!r}; "
                                  "parameters are cached by name")
        names[name] = v.id
        params.append(enc.spec(v, name=name, index=v.index))
    doc = {
        "name": graph.name, "next_id": graph._next_id,
        "inputs": [enc.spec(v, index=v.index) for v in graph.inputs],
        "params": params,
        "consts": [enc.spec(v, array=_array(np.asarray(v.array))) for v in graph.consts],
        "nodes": [enc.node(node) for node in graph.nodes],
    }
    doc["outputs"] = [enc.value(x) for x in graph.outputs]
    doc["out_tree"] = _tree(graph.out_tree, enc)
    doc["prims"] = enc.prims
    body = json.dumps(doc, allow_nan=False, separators=(",", ":")).encode("utf-8")
    header = b"%s %d %s\n" % (_MAGIC, VERSION, hashlib.sha256(body).hexdigest().encode())
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, header + body)


# -- loading --------------------------------------------------------------------------------
def _prim_class(name: str) -> type[Primitive]:
    module, _, cls_name = name.partition(".")
    cls = None
    if module in _MODULES and cls_name.isidentifier() and not cls_name.startswith("_"):
        cls = getattr(importlib.import_module(f"{_PACKAGE}.{module}"), cls_name, None)
    if not (isinstance(cls, type) and issubclass(cls, Primitive)
            and cls.__module__ == f"{_PACKAGE}.{module}"):
        raise ValueError(f"class {name!r} is not a primitive of {_PACKAGE}")
    return cls


def _from_array(entry: dict[str, Any]) -> np.ndarray:
    dtype = np.dtype(entry["dtype"])
    if dtype.kind not in _ARRAY_KINDS:
        raise ValueError(f"arrays of dtype {dtype} are not allowed")
    shape = tuple(int(n) for n in entry["shape"])
    data = base64.b64decode(entry["data"], validate=True)
    if len(data) != math.prod(shape) * dtype.itemsize:
        raise ValueError(f"an array of shape {list(shape)} and dtype {dtype} has "
                         f"{len(data)} bytes")
    return np.frombuffer(data, dtype).reshape(shape).copy()


def _dtype(name: str) -> mstype.Type:
    if name not in _DTYPES:
        raise ValueError(f"unknown dtype {name!r}")
    return _DTYPES[name]


class _Decoder:
    def __init__(self, table: list[dict[str, Any]], root: Graph) -> None:
        self.table = table
        self.root = root
        self.prims: dict[int, Primitive] = {}
        self.values: dict[int, Value] = {}

    def prim(self, index: int) -> Primitive:
        if type(index) is not int:
            raise ValueError(f"bad primitive reference {index!r}")
        found = self.prims.get(index)
        if found is not None:
            return found
        entry = self.table[index]
        if entry["class"] in _CONTROL_FLOW:
            graphs = [self.graph(g) for g in entry["graphs"]]
            cls = _CONTROL_FLOW[entry["class"]]
            if cls is control_flow.Switch:
                prim = cls(graphs)
            elif cls is control_flow.WhileLoop:
                prim = cls(*graphs, int(entry["count"]), entry.get("save") is True)
            else:
                prim = cls(*graphs, int(entry["count"]))
            self.prims[index] = prim
            return prim
        prim = object.__new__(_prim_class(entry["class"]))
        Primitive.__init__(prim)
        self.prims[index] = prim  # before its attributes, which may refer back to it
        attrs = {}
        for key, value in entry["attrs"].items():
            if not key.isidentifier() or key.startswith(("_kernel", "__")):
                raise ValueError(f"bad attribute name {key!r} of {entry['class']}")
            attrs[key] = self.value(value)
        prim.__dict__.update(attrs)
        return prim

    def value(self, x: Any) -> Any:
        if x is None or type(x) in (bool, int, float, str):
            return x
        if type(x) is list:
            return [self.value(i) for i in x]
        tag, v = x["$t"], x.get("v")
        if tag == "tuple":
            return tuple(self.value(i) for i in v)
        if tag == "dict":
            return {self.value(k): self.value(i) for k, i in v}
        if tag == "float":
            if v not in ("nan", "inf", "-inf"):
                raise ValueError(f"bad float {v!r}")
            return float(v)
        if tag == "dtype":
            return _dtype(v)
        if tag == "value":
            return self.values[v]
        if tag == "array":
            return _from_array(x)
        if tag == "scalar":
            return _from_array(x)[()]
        if tag == "prim":
            return self.prim(v)
        raise ValueError(f"unknown tag {tag!r}")

    def graph(self, doc: dict[str, Any]) -> Graph:
        graph = Graph(str(doc["name"]), parent=self.root)
        graph.inputs = [self.spec(e, "input") for e in doc["inputs"]]
        graph.consts = [self.spec(e, "const", array=_from_array(e["array"]))
                        for e in doc["consts"]]
        graph.nodes = [self.node(e) for e in doc["nodes"]]
        graph.outputs = [self.value(x) for x in doc["outputs"]]
        return graph

    def node(self, e: dict[str, Any]) -> Node:
        node = Node(int(e["id"]), self.prim(e["prim"]), [self.value(x) for x in e["inputs"]],
                    scope=str(e["scope"]), source=str(e["source"]), multi=bool(e["multi"]))
        node.outputs = [self.spec(o, "node", node=node) for o in e["outputs"]]
        return node

    def spec(self, entry: dict[str, Any], kind: str, **more: Any) -> Value:
        value = Value(int(entry["id"]), kind, tuple(int(n) for n in entry["shape"]),
                      _dtype(entry["dtype"]), index=int(entry.get("index", 0)), **more)
        if value.id in self.values:
            raise ValueError(f"value id {value.id} is defined twice")
        self.values[value.id] = value
        return value


def _untree(tree: Any, dec: _Decoder) -> Any:
    if tree is None:
        return None
    kind: Any = {"tuple": tuple, "list": list, "dict": dict}[tree["kind"]]
    if kind is dict:
        kind = (dict, tuple(dec.value(tree["keys"])))
    return kind, [(int(offset), _untree(sub, dec)) for offset, sub in tree["items"]]


def _bind(entry: dict[str, Any], params: dict[str, Any]) -> Any:
    name = entry["name"]
    if name not in params:
        known = ", ".join(sorted(params)[:20]) or "none"
        raise _Unbound(f"the cached graph reads Parameter {name!r}, which is not among the "
                       f"parameters given ({known})")
    param = params[name]
    shape, dtype = tuple(entry["shape"]), _dtype(entry["dtype"])
    if tuple(param.shape) != shape or param.dtype is not dtype:
        raise _Unbound(f"Parameter {name!r} has shape {list(param.shape)} and dtype "
                       f"{param.dtype}, but the cached graph was compiled for {list(shape)} "
                       f"and {dtype}")
    return param


def load_graph(path: str | os.PathLike[str], params: dict[str, Any]) -> Graph:
    """The graph saved at ``path``, its parameters bound by name to ``params``. Raises
    ValueError naming the file if it is truncated, corrupted or tampered with, or if a
    parameter it reads is missing or changed."""
    path = Path(path)
    raw = path.read_bytes()
    head, _, body = raw.partition(b"\n")
    parts = head.split(b" ")
    if len(parts) != 3 or parts[0] != _MAGIC or parts[1] != str(VERSION).encode():
        raise ValueError(f"{path}: not an ember graph cache file of version {VERSION}")
    if hashlib.sha256(body).hexdigest().encode() != parts[2]:
        raise ValueError(f"{path}: the graph cache file is truncated or corrupted "
                         "(checksum mismatch)")
    try:
        return _decode(json.loads(body), params)
    except _Unbound as exc:
        raise ValueError(f"{path}: {exc}") from None
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError,
            binascii.Error) as exc:
        raise ValueError(f"{path}: invalid graph cache file ({type(exc).__name__}: "
                         f"{exc})") from None


def _decode(doc: dict[str, Any], params: dict[str, Any]) -> Graph:
    graph = Graph(str(doc["name"]), _next_id=int(doc["next_id"]))
    dec = _Decoder(doc["prims"], graph)
    graph.inputs = [dec.spec(e, "input") for e in doc["inputs"]]
    graph.params = [dec.spec(e, "param", param=_bind(e, params)) for e in doc["params"]]
    graph.consts = [dec.spec(e, "const", array=_from_array(e["array"])) for e in doc["consts"]]
    graph.nodes = [dec.node(e) for e in doc["nodes"]]
    graph.outputs = [dec.value(x) for x in doc["outputs"]]
    graph.out_tree = _untree(doc["out_tree"], dec)
    _check_specs(graph)
    return graph


class _Abstract:
    """The device of the symbolic tensors a load infers shapes with: values are not known."""

    device = None

    def to_host(self, data: Any) -> Any:
        raise ValueError("a node's shape rule reads a tensor's value")


_ABSTRACT = _Abstract()


def _symbolic(x: Any) -> Any:
    if isinstance(x, Value):
        if x.param is not None:
            return x.param
        return Tensor._make(x, x.dtype, x.shape, _ABSTRACT)
    if isinstance(x, tuple | list):
        return type(x)(_symbolic(i) for i in x)
    return x


def _specs(values: list[Any]) -> list[tuple[tuple[int, ...], mstype.Type]]:
    return [(tuple(v.shape), v.dtype) for v in values if isinstance(v, Value)]


def _check_specs(graph: Graph) -> None:
    """Infer every node's outputs again and compare with the stored shapes and dtypes (also
    of the constants, and of the subgraphs of control-flow nodes against their operands)."""
    for v in graph.consts:
        if v.array.shape != v.shape or v.array.dtype != v.dtype.np_dtype:
            raise ValueError(f"constant {v!r} holds an array of shape {list(v.array.shape)} "
                             f"and dtype {v.array.dtype}")
    for node in graph.nodes:
        operands = _specs(node.inputs)
        for sub in subgraphs(node):
            _check_specs(sub)
        if isinstance(node.prim, control_flow.Switch):
            expected = [(b, operands[1:], _specs(node.outputs)) for b in node.prim.branches]
        elif isinstance(node.prim, control_flow.WhileLoop):
            expected = [(node.prim.cond, operands, None),
                        (node.prim.body, operands, operands[:node.prim.count])]
        else:
            expected = []
        for sub, inputs, outputs in expected:
            if _specs(sub.inputs) != inputs or outputs is not None and (
                    _specs(sub.outputs) != outputs):
                raise ValueError(f"node {node.scope}: subgraph {sub.name!r} does not match "
                                 "the node's operands")
        spec = node.prim.infer(*_symbolic(node.inputs))
        inferred = [(tuple(s), d) for s, d in (spec if type(spec) is list else [spec])]
        if inferred != _specs(node.outputs):
            raise ValueError(f"node {node.scope} ({node.prim.name}) is stored with outputs "
                             f"{_specs(node.outputs)}, but its inputs give {inferred}")
