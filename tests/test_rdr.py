"""The Running Data Recorder (``env_config_path``'s ``rdr``): the key data of a failed compiled
graph or training step, and with mode 2 of a normal end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ember import Model, Tensor, context, nn, ops
from ember.dataset import NumpySlicesDataset


class Head(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.dense = nn.Dense(4, 3)
        self.loss = ops.SparseSoftmaxCrossEntropyWithLogits()

    def construct(self, x: Tensor, label: Tensor) -> Tensor:
        return self.loss(self.dense(x), label)


def enable(tmp_path: Path, mode: int = 1) -> Path:
    config = tmp_path / "env.json"
    config.write_text(json.dumps({"rdr": {"enable": True, "mode": mode,
                                          "path": str(tmp_path / "rdr")}}))
    context.set_context(env_config_path=str(config))
    return tmp_path / "rdr" / "rank_0" / "rdr"


def test_a_failing_compiled_graph_is_recorded(tmp_path: Path) -> None:
    folder = enable(tmp_path)
    context.set_context(mode=context.GRAPH_MODE)
    net = Head()
    x = Tensor(np.ones((2, 4), np.float32))
    net(x, Tensor(np.array([0, 1], np.int32)))  # runs: nothing recorded
    assert not folder.exists()
    with pytest.raises(RuntimeError, match="SparseSoftmaxCrossEntropyWithLogits failed") as info:
        net(x, Tensor(np.array([0, 7], np.int32)))  # 7 is not a class
    (record,) = folder.iterdir()
    assert record.name.endswith("_fault")
    (ir,) = record.glob("graph_*.ir")
    assert "Default/dense-Dense/MatMul-op0" in ir.read_text()
    assert (record / "inputs.txt").read_text() == (
        "input 0: shape=[2, 4], dtype=Float32\ninput 1: shape=[2], dtype=Int32\n")
    assert json.loads((record / "context.json").read_text())["mode"] == context.GRAPH_MODE
    assert str(info.value) in (record / "stack.txt").read_text()


def test_a_failing_training_step_is_recorded_once(tmp_path: Path) -> None:
    folder = enable(tmp_path)
    net = Head()
    model = Model(net, optimizer=nn.Momentum(net.trainable_params(), 0.1, 0.9))
    data = NumpySlicesDataset((np.ones((4, 4), np.float32), np.array([0, 1, 9, 2], np.int32)),
                              column_names=["x", "y"], shuffle=False).batch(2)
    with pytest.raises(RuntimeError):
        model.train(1, data, dataset_sink_mode=False)
    (record,) = folder.iterdir()  # the graph and the step saw it: one record
    assert (record / "inputs.txt").read_text() == (
        "input 0: shape=[2, 4], dtype=Float32\ninput 1: shape=[2], dtype=Int32\n")
    assert "stack.txt" in {p.name for p in record.iterdir()}


def test_mode_2_records_the_normal_end(tmp_path: Path) -> None:
    config = tmp_path / "env.json"
    config.write_text(json.dumps({"rdr": {"enable": True, "mode": 2,
                                          "path": str(tmp_path / "rdr")}}))
    script = ("import numpy as np\nfrom ember import Tensor, context, ops, ms_function\n"
              f"context.set_context(env_config_path={str(config)!r}, device_target='CPU')\n"
              "ms_function(lambda x: ops.add(x, x))(Tensor(np.ones(3, np.float32)))\n")
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120)
    (record,) = (tmp_path / "rdr" / "rank_0" / "rdr").iterdir()
    assert record.name.endswith("_normal_end")
    assert {p.name for p in record.iterdir()} == {"graph__lambda_.ir", "inputs.txt",
                                                  "context.json"}


def test_the_mode_is_validated(tmp_path: Path) -> None:
    config = tmp_path / "env.json"
    config.write_text(json.dumps({"rdr": {"enable": True, "mode": 3, "path": "/tmp"}}))
    with pytest.raises(ValueError, match=r"\['rdr'\]\['mode'\] must be one of 1, 2, but got 3"):
        context.set_context(env_config_path=str(config))
