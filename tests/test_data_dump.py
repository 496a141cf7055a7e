"""The synchronous data dump (``MINDSPORE_DUMP_CONFIG``, ``enable_dump``): MindSpore's file
layout, the values the ops computed, and the filters of the configuration."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import ember
from ember import Tensor, context, dump, ops

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nets import DenseReLU  # noqa: E402

NAME = re.compile(r"(?P<type>\w+)\.(?P<op>[\w-]+)\.0\.0\.(?P<ts>\d{16})\."
                  r"(?P<io>input|output)\.(?P<slot>\d+)\.DefaultFormat\.npy")
DENSE = "Default/dense-Dense/MatMul-op0"


@pytest.fixture(autouse=True)
def no_dump_left():
    yield
    dump.stop()


def config(path: Path, **common) -> dump.DumpConfig:
    return dump.DumpConfig({"common_dump_settings": {"path": str(path), "net_name": "Net",
                                                     **common},
                            "e2e_dump_settings": {"enable": True, "trans_flag": True}})


def files(root: Path) -> dict[tuple, np.ndarray]:
    """(rank, net, graph_id, iteration, op_type, op_name, io, slot) -> the array."""
    found = {}
    for path in root.rglob("*.npy"):
        rank, net, graph_id, iteration = path.relative_to(root).parts[:4]
        match = NAME.fullmatch(path.name)
        assert match, path.name
        found[(rank, net, graph_id, int(iteration), match["type"], match["op"], match["io"],
               int(match["slot"]))] = np.load(path)
    return found


@pytest.mark.parametrize("mode", [context.GRAPH_MODE, context.PYNATIVE_MODE])
def test_layout_and_values_of_every_op(tmp_path: Path, mode: int) -> None:
    context.set_context(mode=mode, device_target="CPU")
    net = DenseReLU()
    x = np.random.default_rng(0).standard_normal((2, 4)).astype(np.float32)
    dump.start(config(tmp_path))
    out = net(Tensor(x)).asnumpy()
    net(Tensor(x))
    dump.stop()
    got = files(tmp_path)
    graph_id = "0" if mode == context.PYNATIVE_MODE else {k[2] for k in got}.pop()
    assert {k[:4] for k in got} == {("rank_0", "Net", graph_id, 0), ("rank_0", "Net", graph_id, 1)}
    first = {k[4:]: v for k, v in got.items() if k[3] == 0}
    assert sorted({k[:2] for k in first}) == [("BiasAdd", "BiasAdd-op1"), ("MatMul", "MatMul-op0"),
                                              ("ReLU", "ReLU-op2")]
    weight = net.dense.weight.asnumpy()
    np.testing.assert_array_equal(first[("MatMul", "MatMul-op0", "input", 0)], x)
    np.testing.assert_array_equal(first[("MatMul", "MatMul-op0", "input", 1)], weight)
    np.testing.assert_allclose(first[("MatMul", "MatMul-op0", "output", 0)], x @ weight.T,
                               rtol=1e-6)
    pre = x @ weight.T + net.dense.bias.asnumpy()
    np.testing.assert_allclose(first[("BiasAdd", "BiasAdd-op1", "output", 0)], pre, rtol=1e-6)
    np.testing.assert_array_equal(first[("ReLU", "ReLU-op2", "output", 0)], out)
    np.testing.assert_allclose(out, np.maximum(pre, 0), rtol=1e-6)


def test_kernels_iterations_and_input_output_filters(tmp_path: Path) -> None:
    context.set_context(mode=context.GRAPH_MODE, device_target="CPU")
    net = DenseReLU()
    x = Tensor(np.ones((2, 4), np.float32))
    dump.start(config(tmp_path, dump_mode=1, kernels=[DENSE, "ReLU-op2"], iteration="1|3-4",
                      input_output=2))
    for _ in range(6):
        net(x)
    got = files(tmp_path)
    assert sorted({k[3] for k in got}) == [1, 3, 4]
    assert {(k[5], k[6]) for k in got} == {("MatMul-op0", "output"), ("ReLU-op2", "output")}


def test_the_environment_variable_and_enable_dump(tmp_path: Path, monkeypatch) -> None:
    context.set_context(mode=context.PYNATIVE_MODE, device_target="CPU")
    path = tmp_path / "dump.json"
    path.write_text(json.dumps({"common_dump_settings": {"path": str(tmp_path / "d"),
                                                         "net_name": "N", "input_output": 1},
                                "e2e_dump_settings": {"enable": True}}))
    monkeypatch.setenv(dump.ENV, str(path))
    with pytest.warns(DeprecationWarning):
        context.set_context(enable_dump=True)
    DenseReLU()(Tensor(np.ones((1, 4), np.float32)))
    assert {k[6] for k in files(tmp_path / "d")} == {"input"}
    assert {k[1] for k in files(tmp_path / "d")} == {"N"}
    monkeypatch.delenv(dump.ENV)
    with pytest.warns(DeprecationWarning):
        context.set_context(enable_dump=True, save_dump_path=str(tmp_path / "s"))
    DenseReLU()(Tensor(np.ones((1, 4), np.float32)))
    with pytest.warns(DeprecationWarning):
        context.set_context(enable_dump=False)
    DenseReLU()(Tensor(np.ones((1, 4), np.float32)))
    assert len(files(tmp_path / "s")) == 8  # MatMul, BiasAdd: 2 inputs; ReLU 1; 3 outputs


@pytest.mark.parametrize(("settings", "error", "message"), [
    ({"common_dump_settings": {"net_name": "N"}, "e2e_dump_settings": {"enable": True}},
     ValueError, "must give 'path'"),
    ({"common_dump_settings": {"path": "rel"}, "e2e_dump_settings": {"enable": True}},
     ValueError, r"\['path'\] must be an absolute path, but got 'rel'"),
    ({"common_dump_settings": {"path": "/d"}}, ValueError, "e2e_dump_settings\\['enable'\\] must"),
    ({"common_dump_settings": {"path": "/d", "input_output": 3},
      "e2e_dump_settings": {"enable": True}}, ValueError, "input_output'\\] must be one of 0"),
    ({"common_dump_settings": {"path": "/d", "iteration": "2-1"},
      "e2e_dump_settings": {"enable": True}}, ValueError, "iteration must be 'all' or steps"),
    ({"common_dump_settings": {"path": "/d", "dump_mode": 1},
      "e2e_dump_settings": {"enable": True}}, ValueError, "kernels is empty"),
    ({"common_dump_settings": {"path": "/d", "kernel": []}, "e2e_dump_settings": {"enable": True}},
     ValueError, "has no key 'kernel'"),
])
def test_bad_configurations_are_refused(settings: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        dump.DumpConfig(settings)


def test_start_without_configuration(monkeypatch) -> None:
    monkeypatch.delenv(dump.ENV, raising=False)
    with pytest.raises(ValueError, match="MINDSPORE_DUMP_CONFIG is not set"):
        dump.start()


@pytest.mark.parametrize("mode", [context.GRAPH_MODE, context.PYNATIVE_MODE])
def test_dump_mode_2_dumps_the_ops_set_dump_marked(tmp_path: Path, mode: int) -> None:
    context.set_context(mode=mode, device_target="CPU")
    net = DenseReLU()
    x = np.random.default_rng(1).standard_normal((2, 4)).astype(np.float32)
    ember.set_dump(net.relu)
    dump.start(config(tmp_path / "relu", dump_mode=2))
    out = net(Tensor(x)).asnumpy()
    dump.stop()
    got = files(tmp_path / "relu")
    assert {(k[4], k[6]) for k in got} == {("ReLU", "input"), ("ReLU", "output")}
    np.testing.assert_array_equal([v for k, v in got.items() if k[6] == "output"][0], out)

    ember.set_dump(net)
    ember.set_dump(net.relu, enabled=False)
    dump.start(config(tmp_path / "dense", dump_mode=2))
    net(Tensor(x))
    dump.stop()
    assert {k[4] for k in files(tmp_path / "dense")} == {"MatMul", "BiasAdd"}


def test_set_dump_marks_primitives_and_checks_its_arguments() -> None:
    add = ops.Add()
    assert ember.set_dump(add) is None and add.attrs["dump"] == "true"
    ember.set_dump(add, False)
    assert add.attrs["dump"] == "false"
    marked = DenseReLU()
    ember.common.set_dump(marked)
    prims = [v for _, c in marked.cells_and_names() for v in vars(c).values()
             if isinstance(v, ops.Primitive)]
    assert prims and all(p.attrs["dump"] == "true" for p in prims)
    with pytest.raises(ValueError, match="'target' must be a Cell or a Primitive, but got int"):
        ember.set_dump(1)
    with pytest.raises(ValueError, match="'enabled' must be a bool, but got 1"):
        ember.set_dump(add, 1)
    assert add.attrs["dump"] == "false"
