"""``export``: a network's inference graph as a file other runtimes load, as
``mindspore.export``.

The network is traced with ``inputs`` in inference mode (``set_train(False)``, restored after),
the graph passes run, and the graph is written in ``file_format``:

- ``"ONNX"``: an ONNX model, opset 13 (needs ``pip install 'ember-core[onnx]'``);
- ``"MINDIR"``: MindSpore's MindIR protobuf (``ember.train.mindir``), which ``ember.load``
  reads back into a graph that ``nn.GraphCell`` runs;
- ``"AIR"`` is the Ascend format (it needs CANN's graph engine) and is refused.

``file_name`` gets the format's suffix (``.onnx``, ``.mindir``) unless it has it.
"""

from __future__ import annotations

import os
from typing import Any

from ember.common.tensor import Tensor
from ember.graph.compiler import PASSES
from ember.graph.serialize import write_atomic
from ember.graph.tracer import trace
from ember.train.mindir import to_mindir

__all__ = ["export"]

_SUFFIX = {"ONNX": ".onnx", "MINDIR": ".mindir"}


def export(net: Any, *inputs: Tensor, file_name: str, file_format: str = "AIR",
           **kwargs: Any) -> str:
    """Write ``net``'s graph for ``inputs`` into ``file_name`` + suffix; returns the path."""
    from ember.nn.cell import Cell

    if not isinstance(net, Cell):
        raise TypeError(f"export: net must be a Cell, but got {type(net).__name__}")
    if file_format not in _SUFFIX:
        hint = " (AIR is Ascend's format, written by CANN's graph engine)" * (
            file_format == "AIR")
        raise ValueError(f"export: file_format must be one of {', '.join(_SUFFIX)}, but got "
                         f"{file_format!r}{hint}")
    if kwargs:
        raise TypeError(f"export: unexpected keyword arguments {sorted(kwargs)}")
    if not isinstance(file_name, str) or not file_name:
        raise TypeError(f"export: file_name must be a non-empty str, but got {file_name!r}")
    for i, x in enumerate(inputs):
        if not isinstance(x, Tensor):
            raise TypeError(f"export: input {i} must be a Tensor, but got {type(x).__name__}")
    graph = inference_graph(net, inputs)
    if file_format == "ONNX":
        from ember.train._onnx import to_onnx

        content = to_onnx(graph).SerializeToString()
    else:
        content = to_mindir(graph)
    path = file_name if file_name.endswith(_SUFFIX[file_format]) else (
        file_name + _SUFFIX[file_format])
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    write_atomic(path, content, durable=True)
    return path


def inference_graph(net: Any, inputs: tuple) -> Any:
    """``net(*inputs)`` traced in inference mode, after the graph passes."""
    training = net.training
    net.set_train(False)
    try:
        graph = trace(lambda *a: net._run_construct(a, {}), inputs, type(net).__name__, net)
    finally:
        net.set_train(training)
    for _, run_pass in PASSES:
        graph = run_pass(graph)
    return graph
