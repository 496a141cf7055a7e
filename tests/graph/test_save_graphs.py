"""save_graphs: each compile writes its stages as text and Graphviz files."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from ember import Tensor, context, nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 2, 3, pad_mode="valid")
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(self.conv1(x))  # the source line the graph files name


def _compile(tmp_path, **options):
    context.set_context(mode=context.GRAPH_MODE, save_graphs=True,
                        save_graphs_path=str(tmp_path / "graphs"), **options)
    Net()(Tensor(np.ones((1, 1, 5, 5), np.float32)))
    return tmp_path / "graphs"


def test_stages_that_change_the_graph_are_written_as_ir_and_dot(tmp_path):
    directory = _compile(tmp_path)
    names = sorted(p.name for p in directory.iterdir())
    assert any(n.endswith("_Net_00_trace.ir") for n in names), names
    assert any(n.endswith("_Net_00_trace.dot") for n in names), names
    assert any(n.endswith("_Net_backend.py") for n in names)
    (summary,) = directory.glob("*_Net_passes.txt")
    assert summary.read_text() == (  # conv + relu: no pass finds anything to do
        "00_trace: 2 nodes\n01_fold_constants: unchanged, not written\n"
        "02_cse: unchanged, not written\n03_dce: unchanged, not written\n"
        "04_pool_before_relu: unchanged, not written\n")
    assert not any("_fold_constants." in n or "_dce." in n for n in names)


class Folds(nn.Cell):
    def construct(self, x):
        two = ops.add(Tensor(1.0), Tensor(1.0))  # constant: folded
        return ops.mul(x, two) + ops.mul(x, two)  # the same product twice: merged by cse


def test_a_pass_that_changes_the_graph_writes_its_stage(tmp_path):
    context.set_context(mode=context.GRAPH_MODE, save_graphs=True,
                        save_graphs_path=str(tmp_path))
    Folds()(Tensor(np.ones(3, np.float32)))
    (summary,) = tmp_path.glob("*_Folds_passes.txt")
    lines = summary.read_text().splitlines()
    assert lines[0] == "00_trace: 4 nodes" and lines[1] == "01_fold_constants: 3 nodes"
    assert lines[2] == "02_cse: 2 nodes"  # dce then drops the constant left unused
    for line in lines:
        written = not line.endswith("unchanged, not written")
        assert len(list(tmp_path.glob(f"*_Folds_{line.split(':')[0]}.ir"))) == written


def test_a_training_graph_has_forward_backward_and_optimizer_clusters(tmp_path):
    context.set_context(mode=context.GRAPH_MODE, save_graphs=True,
                        save_graphs_path=str(tmp_path))
    net = Net()
    loss = nn.WithLossCell(nn.SequentialCell(net, nn.Flatten()), nn.MSELoss())
    step = nn.TrainOneStepCell(loss, nn.Momentum(net.trainable_params(), 0.1, 0.9))
    step(Tensor(np.ones((1, 1, 5, 5), np.float32)), Tensor(np.zeros((1, 18), np.float32)))
    (dot,) = tmp_path.glob("*_TrainOneStepCell_00_trace.dot")
    text = dot.read_text()
    for phase in ("forward", "backward", "optimizer"):
        assert f"subgraph cluster_{phase} {{" in text
    assert "Conv2DBackpropFilter" in text.split("cluster_backward")[1].split("}")[0]
    assert "ApplyMomentum" in text.split("cluster_optimizer")[1].split("}")[0]
    if shutil.which("dot"):
        assert dot.with_suffix(".svg").read_text().lstrip().startswith("<?xml")


def test_ir_lines_name_scope_shape_and_source(tmp_path):
    directory = _compile(tmp_path)
    text = next(directory.glob("*_Net_00_trace.ir")).read_text()
    conv = next(line for line in text.splitlines() if "= Conv2D(" in line)
    assert "Default/conv1-Conv2d/Conv2D-op0" in conv
    assert "([1, 2, 3, 3], Float32)" in conv
    assert "test_save_graphs.py:21" in conv
    assert "Default/relu-ReLU/ReLU-op1" in text
    assert "conv1.weight" in text


def test_scope_without_class_names(tmp_path):
    directory = _compile(tmp_path, reserve_class_name_in_scope=False)
    text = next(directory.glob("*_Net_00_trace.ir")).read_text()
    assert "Default/conv1/Conv2D-op0" in text


def test_distributed_runs_write_under_rank_folders(tmp_path):
    context.set_auto_parallel_context(device_num=2, global_rank=1)
    directory = _compile(tmp_path)
    assert list((directory / "rank_1").glob("*.ir"))


@pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz's dot is not installed")
def test_dot_files_render_with_graphviz(tmp_path):
    directory = _compile(tmp_path)
    for dot in directory.glob("*.dot"):
        subprocess.run(["dot", "-Tsvg", str(dot), "-o", str(dot.with_suffix(".svg"))],
                       check=True, timeout=60)
        assert dot.with_suffix(".svg").read_text().lstrip().startswith("<?xml")


def test_a_drawing_graphviz_cannot_make_warns_and_the_graph_still_compiles(tmp_path,
                                                                          monkeypatch):
    fake = tmp_path / "bin" / "dot"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\nexit 3\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(fake.parent))
    with pytest.warns(UserWarning, match=r"_Net_00_trace.dot was not drawn as SVG"):
        directory = _compile(tmp_path)
    assert list(directory.glob("*_Net_00_trace.ir"))
    assert not list(directory.glob("*.svg"))
