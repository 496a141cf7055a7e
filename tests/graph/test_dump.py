"""``save_graphs`` output: the ``NN_<stage>.ir`` text and the Graphviz ``.dot`` of a graph."""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pytest

import ember
from ember import Parameter, Tensor, ops
from ember.common import dtype as mstype
from ember.graph.dump import render_dot, render_text, write_stage
from ember.graph.ir import Graph, Node, Value, flatten


def build(name: str = "construct", scope_prefix: str = "Default") -> Graph:
    """conv -> scale -> sum -> cast, an ArgMaxWithValue (two outputs), nested outputs."""
    g = Graph(name)

    def value(kind, shape, dtype, **more):
        return Value(g.new_id(), kind, tuple(shape), dtype, **more)

    def op(prim, *inputs, cell="conv1-Conv2d"):
        spec = prim.infer(*(Tensor._make(a, a.dtype, a.shape, None) if isinstance(a, Value)
                            else a for a in inputs))
        multi = type(spec) is list
        node = Node(g.new_id(), prim, list(inputs), multi=multi,
                    scope=f"{scope_prefix}/{cell}/{prim.name}-op{len(g.nodes)}",
                    source=f"train.py:{41 + len(g.nodes)}")
        node.outputs = [value("node", shape, dtype, node=node, index=i)
                        for i, (shape, dtype) in enumerate(spec if multi else [spec])]
        g.nodes.append(node)
        return tuple(node.outputs) if multi else node.outputs[0]

    x = value("input", (32, 1, 32, 32), mstype.float32, index=0)
    g.inputs.append(x)
    weight = Parameter(Tensor(np.zeros((6, 1, 5, 5), np.float32)), name="conv1.weight")
    w = value("param", weight.shape, weight.dtype, index=0, param=weight)
    g.params.append(w)
    scale = value("const", (), mstype.float32, array=np.array(0.5, np.float32))
    table = value("const", (100,), mstype.int32, array=np.arange(100, dtype=np.int32))
    g.consts += [scale, table]
    y = op(ops.Conv2D(6, 5), x, w)
    y = op(ops.Mul(), y, scale)
    s = op(ops.ReduceSum(keep_dims=True), y, (2, 3), cell="head-Dense")
    c = op(ops.Cast(), s, ember.float64, cell="head-Dense")
    index, best = op(ops.ArgMaxWithValue(axis=1), c, cell="head-Dense")
    g.outputs, g.out_tree = flatten((y, [index, best, 1.5], table), lambda v: False)
    return g


# -- the text -------------------------------------------------------------------------------
def test_write_stage_file_names(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)  # as without Graphviz
    graph = build()
    folder = tmp_path / "ir" / "rank_0"
    paths = write_stage(graph, folder, 3, "parse")
    assert [p.name for p in paths] == ["03_parse.ir", "03_parse.dot"]
    assert all(p.parent == folder and p.is_file() for p in paths)
    assert paths[0].read_text() == render_text(graph)
    assert paths[1].read_text() == render_dot(graph)
    again = write_stage(graph, str(folder), 12, "opt_dce")  # str paths; rewriting is fine
    write_stage(graph, folder, 12, "opt_dce")
    assert [p.name for p in again] == ["12_opt_dce.ir", "12_opt_dce.dot"]
    assert sorted(p.name for p in folder.iterdir()) == [
        "03_parse.dot", "03_parse.ir", "12_opt_dce.dot", "12_opt_dce.ir"]  # no temporary files


def test_each_node_is_one_line_with_primitive_shapes_scope_and_source():
    graph = build()
    lines = render_text(graph).splitlines()
    for node in graph.nodes:
        found = [line for line in lines if node.scope in line]
        assert len(found) == 1, node.scope
        line = found[0]
        outs = ", ".join(v.name for v in node.outputs)
        assert line.startswith(f"({outs}) = " if node.multi else f"{outs} = ")
        assert f" = {node.prim.name}(" in line
        for v in node.outputs:
            assert f"({list(v.shape)}, {v.dtype})" in line
        assert line.endswith(f"# {node.scope}  {node.source}")
    # node lines come in execution order
    order = [next(i for i, line in enumerate(lines) if n.scope in line) for n in graph.nodes]
    assert order == sorted(order)


def test_node_line_format():
    graph = build()
    text = render_text(graph)
    x, w = graph.inputs[0], graph.params[0]
    conv = graph.nodes[0]
    assert (f"%{conv.outputs[0].id} = Conv2D(%arg{x.id}, %param{w.id}) {{out_channel=6, "
            "kernel_size=(5, 5), mode=1, pad_mode='valid', pad=(0, 0, 0, 0), stride=(1, 1, 1, 1), "
            "dilation=(1, 1, 1, 1), group=1, data_format='NCHW'} : ([32, 6, 28, 28], Float32)  "
            "# Default/conv1-Conv2d/Conv2D-op0  train.py:41") in text.splitlines()
    # inline inputs by repr; dtypes by name; no attributes, no braces
    assert re.search(r"= ReduceSum\(%\d+, \(2, 3\)\) \{keep_dims=True\} : "
                     r"\(\[32, 6, 1, 1\], Float32\)", text)
    assert re.search(r"= Cast\(%\d+, Float64\) : \(\[32, 6, 1, 1\], Float64\)  #", text)
    assert re.search(r"^\(%\d+, %\d+\) = ArgMaxWithValue\(%\d+\) \{axis=1, keep_dims=False\} : "
                     r"\(\[32, 1, 1\], Int32\), \(\[32, 1, 1\], Float64\)  #", text, re.M)
    assert "_kernel" not in text


def test_header_and_return_line():
    graph = build()
    lines = render_text(graph).splitlines()
    assert "construct" in lines[0]
    mul, argmax = graph.nodes[1], graph.nodes[4]
    scale, table = graph.consts
    assert f"input %arg{graph.inputs[0].id} : ([32, 1, 32, 32], Float32)" in lines
    assert f"param %param{graph.params[0].id} : ([6, 1, 5, 5], Float32)  # conv1.weight" in lines
    assert f"const %const{scale.id} : ([], Float32) = 0.5" in lines
    assert f"const %const{table.id} : ([100], Int32)" in lines  # large: no values
    index, best = argmax.outputs
    assert lines[-1] == (f"return (%{mul.outputs[0].id}, [%{index.id}, %{best.id}, 1.5], "
                         f"%const{table.id})")


def test_return_of_a_single_value():
    g = Graph("f")
    x = Value(g.new_id(), "input", (2,), mstype.float32)
    g.inputs.append(x)
    g.outputs, g.out_tree = flatten(x, lambda v: False)
    assert render_text(g).splitlines()[-1] == f"return %arg{x.id}"


# -- the Graphviz -------------------------------------------------------------------------
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')


def check_dot_structure(dot: str, graph: Graph) -> None:
    """Balanced braces and brackets outside quoted strings, one statement per declared node,
    and every edge between declared nodes."""
    bare = _QUOTED.sub('""', dot)
    assert '"' not in bare.replace('""', "")
    assert bare.lstrip().startswith("digraph")
    depth = 0
    for ch in bare:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        assert depth >= 0
    assert depth == 0 and bare.count("[") == bare.count("]")
    declared = set(re.findall(r"^\s*(\w+) \[", bare, re.M)) - {"node", "edge", "graph"}
    edges = re.findall(r"^\s*(\w+) -> (\w+)", bare, re.M)
    assert edges and all(a in declared and b in declared for a, b in edges)
    values = [*graph.inputs, *graph.params, *graph.consts]
    assert declared == {f"v{v.id}" for v in values} | {f"n{n.id}" for n in graph.nodes} | {"ret"}
    flows = {(a, b) for a, b in edges}
    for node in graph.nodes:
        for x in node.tensor_inputs():
            source = f"n{x.node.id}" if x.kind == "node" else f"v{x.id}"
            assert (source, f"n{node.id}") in flows


def test_dot_structure():
    graph = build()
    dot = render_dot(graph)
    check_dot_structure(dot, graph)
    conv = graph.nodes[0]
    assert re.search(rf'n{conv.id} \[shape=box, label="Conv2D\\n\[32, 6, 28, 28\] Float32", '
                     r'tooltip="Default/conv1-Conv2d/Conv2D-op0\\ntrain.py:41"\]', dot)
    assert re.search(rf'v{graph.params[0].id} \[shape=ellipse.*label="conv1.weight', dot)


def test_dot_escapes_names():
    graph = build(name='odd "name" \\ {x}', scope_prefix='We"ird\\{')
    check_dot_structure(render_dot(graph), graph)


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz (dot) is not installed")
@pytest.mark.parametrize("kwargs", [{}, {"name": 'odd "name" \\ {x}', "scope_prefix": 'a"b\\'}])
def test_dot_renders_with_graphviz(tmp_path, kwargs):
    graph = build(**kwargs)
    paths = write_stage(graph, tmp_path, 0, "parse")
    dot_path = paths[1]
    assert [p.name for p in paths] == ["00_parse.ir", "00_parse.dot", "00_parse.svg"]
    assert paths[2].read_text().lstrip().startswith("<?xml")
    done = subprocess.run(["dot", "-Tsvg", str(dot_path)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert "warning" not in done.stderr.lower() and "error" not in done.stderr.lower()
    assert "<svg" in done.stdout and "Conv2D" in done.stdout and "conv1.weight" in done.stdout
