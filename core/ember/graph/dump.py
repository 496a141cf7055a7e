"""``save_graphs``: each compile stage of a graph as text (``NN_<stage>.ir``) and Graphviz.

The text has one node a line, in execution order: outputs, primitive, inputs, attributes,
output specs, then scope and source::

    %12 = Conv2D(%arg0, %param1) {out_channel=6, ...} : ([32, 6, 28, 28], Float32)  # scope  src

A control-flow node names its subgraphs (``{graphs=('Net/branch0_7', 'Net/branch1_9')}``);
each follows the graph in the same file, as a section of its own (``# Subgraph: ...``). In the
``.dot`` each subgraph is a cluster, linked by a dotted edge from the node that runs it. The
``.dot`` file also groups a training graph's nodes into forward, backward (scopes under
``Gradients/``) and optimizer (in-place updates) clusters, and is rendered to ``.svg`` when
Graphviz's ``dot`` is installed.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import warnings
from pathlib import Path
from typing import Any

from ember.graph.ir import Graph, Node, Value, subgraphs, unflatten, walk
from ember.graph.serialize import write_atomic


class _Name(str):
    """A value's name, shown bare (not quoted) inside a rebuilt output structure."""

    def __repr__(self) -> str:
        return str(self)


def _spec(value: Value) -> str:
    return f"({list(value.shape)}, {value.dtype})"


def _param_name(value: Value) -> str:
    return str(getattr(value.param, "name", "?"))


def _arg(x: Any) -> str:
    return x.name if isinstance(x, Value) else repr(x)


def _outputs_of(node: Node) -> str:
    names = ", ".join(v.name for v in node.outputs)
    return f"({names})" if node.multi or len(node.outputs) != 1 else names


def _node_line(node: Node) -> str:
    attrs = node.prim.attrs if hasattr(node.prim, "attrs") else {}
    shown = " {" + ", ".join(f"{k}={v!r}" for k, v in attrs.items()) + "}" if attrs else ""
    specs = ", ".join(_spec(v) for v in node.outputs) or "()"
    args = ", ".join(_arg(x) for x in node.inputs)
    return (f"{_outputs_of(node)} = {node.prim.name}({args}){shown} : {specs}"
            f"  # {node.scope}  {node.source}".rstrip())


def _return_line(graph: Graph) -> str:
    leaves = [_Name(x.name) if isinstance(x, Value) else x for x in graph.outputs]
    if graph.out_tree is None:  # a subgraph: its flat outputs
        return f"return {leaves[0]!r}" if len(leaves) == 1 else f"return {tuple(leaves)!r}"
    return f"return {unflatten(graph.out_tree, leaves)!r}"


def render_text(graph: Graph) -> str:
    """The ``.ir`` text of ``graph``: header, one line per node, then the return line; then
    the same for each of its subgraphs."""
    return "\n".join(_text(g) for g in walk(graph))


def _text(graph: Graph) -> str:
    kind = "Subgraph" if graph.parent is not None else "Graph"
    lines = [f"# {kind}: {graph.name}",
             f"# {len(graph.inputs)} inputs, {len(graph.params)} params, "
             f"{len(graph.consts)} consts, {len(graph.nodes)} nodes"]
    lines += [f"input {v.name} : {_spec(v)}" + (f"  # {_param_name(v)}" if v.param else "")
              for v in graph.inputs]
    lines += [f"param {v.name} : {_spec(v)}  # {_param_name(v)}" for v in graph.params]
    for v in graph.consts:
        small = v.array is not None and v.array.size <= 8
        lines.append(f"const {v.name} : {_spec(v)}" + (f" = {v.array.tolist()!r}" if small else ""))
    lines.append("")
    lines += [_node_line(node) for node in graph.nodes]
    lines.append(_return_line(graph))
    return "\n".join(lines) + "\n"


# -- Graphviz -------------------------------------------------------------------------------
_NL = "\n"


def _q(text: str) -> str:
    """``text`` as a DOT quoted string."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def _shape(value: Value) -> str:
    return f"{list(value.shape)} {value.dtype}"


def phase_of(node: Node) -> str:
    """Which part of a training step ``node`` belongs to: forward, backward or optimizer."""
    if type(node.prim).__module__.endswith("optim_ops"):
        return "optimizer"
    return "backward" if node.scope.startswith("Gradients/") else "forward"


_CLUSTERS = {"forward": "lightblue", "backward": "mistyrose", "optimizer": "honeydew"}


def render_dot(graph: Graph) -> str:
    """``graph`` as a Graphviz digraph: ellipses for inputs, params and consts, a box per
    node (its scope and source as tooltip; in clusters by phase when the graph has a backward
    or optimizer part), edges for data flow, and the return; each subgraph a cluster, reached
    by a dotted edge from its control-flow node."""
    lines = [f"digraph {_q(graph.name)} {{", "  rankdir=TB;",
             '  node [fontname="monospace", fontsize=10];']
    lines += _dot_body(graph, "  ")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dot_body(graph: Graph, pad: str) -> list[str]:
    lines: list[str] = []
    producer: dict[int, str] = {}
    for style, values in (("", graph.inputs), (", style=filled, fillcolor=lightyellow",
                                               graph.params), (", style=dashed", graph.consts)):
        for v in values:
            title = _param_name(v) if v.kind == "param" else v.name
            lines.append(f"{pad}v{v.id} [shape=ellipse{style}, "
                         f"label={_q(title + _NL + _shape(v))}];")
            producer[v.id] = f"v{v.id}"
    ret = "ret" if graph.parent is None else _q(f"ret:{graph.name}")
    boxes = {node.id: f"n{node.id} [shape=box, label="
             f"{_q(_NL.join([node.prim.name, *(_shape(v) for v in node.outputs)]))}, "
             f"tooltip={_q(node.scope + _NL + node.source)}];" for node in graph.nodes}
    phases: dict[str, list[int]] = {}
    for node in graph.nodes if graph.parent is None else ():
        phases.setdefault(phase_of(node), []).append(node.id)
    clustered = len(phases) > 1
    for phase, ids in phases.items() if clustered else ():
        lines += [f"{pad}subgraph cluster_{phase} {{", f"{pad}  label={_q(phase)};",
                  f'{pad}  style=filled; color="{_CLUSTERS[phase]}";',
                  *(f"{pad}  {boxes[i]}" for i in ids), f"{pad}}}"]
    for node in graph.nodes:
        if not clustered:
            lines.append(pad + boxes[node.id])
        lines += [pad + _edge(producer, x, f"n{node.id}") for x in node.tensor_inputs()]
        producer.update((v.id, f"n{node.id}") for v in node.outputs)
        for sub in subgraphs(node):
            lines.append(f"{pad}subgraph {_q('cluster_' + sub.name)} {{")
            lines.append(f"{pad}  label={_q(sub.name)}; style=rounded;")
            lines += _dot_body(sub, pad + "  ")
            lines.append(f"{pad}}}")
            lines.append(f"{pad}n{node.id} -> {_q('ret:' + sub.name)} [style=dotted, "
                         "dir=back];")
    plain = [repr(x) for x in graph.outputs if not isinstance(x, Value)]
    lines.append(f"{pad}{ret} [shape=doubleoctagon, label={_q(_NL.join(['return', *plain]))}];")
    lines += [pad + _edge(producer, x, ret) for x in graph.outputs if isinstance(x, Value)]
    return lines


def _edge(producer: dict[int, str], value: Value, to: str) -> str:
    source = producer.get(value.id, f"v{value.id}")
    multi = value.node is not None and len(value.node.outputs) > 1
    index = f" [label={_q(str(value.index))}]" if multi else ""
    return f"{source} -> {to}{index};"


def file_stem(name: str, limit: int = 48) -> str:
    """``name`` (a cell's class name) as part of a file name: characters other than letters,
    digits, ``_``, ``-`` and ``.`` become ``_``; a longer or changed name is cut to ``limit``
    characters and ends with a hash of the original, so different names stay apart."""
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
    if stem == name and len(name) <= limit:
        return name
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{stem[:limit - 9]}_{digest}"


def write_stage(graph: Graph, directory: str | os.PathLike[str], index: int,
                stage: str) -> list[Path]:
    """Write ``NN_<stage>.ir`` and ``NN_<stage>.dot`` into ``directory`` (made if missing),
    each atomically, and ``NN_<stage>.svg`` when Graphviz's ``dot`` is installed; returns
    their paths."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for suffix, text in ((".ir", render_text(graph)), (".dot", render_dot(graph))):
        path = folder / f"{index:02d}_{stage}{suffix}"
        write_atomic(path, text.encode("utf-8"), durable=False)
        paths.append(path)
    dot = shutil.which("dot")
    if dot is not None:
        svg = paths[1].with_suffix(".svg")
        try:  # a drawing is a convenience: one Graphviz cannot make never fails the compile
            subprocess.run([dot, "-Tsvg", str(paths[1]), "-o", str(svg)], check=True,
                           timeout=SVG_TIMEOUT, capture_output=True)
            paths.append(svg)
        except (subprocess.SubprocessError, OSError) as exc:
            warnings.warn(f"save_graphs: {paths[1].name} was not drawn as SVG ({exc})",
                          UserWarning, stacklevel=2)
    return paths


#: Seconds Graphviz may take to draw one stage (large graphs take minutes).
SVG_TIMEOUT = 30
