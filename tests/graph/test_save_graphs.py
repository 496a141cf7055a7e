"""save_graphs: each compile writes its stages as text and Graphviz files."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from ember import Tensor, context, nn


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


def test_every_stage_is_written_as_ir_and_dot(tmp_path):
    directory = _compile(tmp_path)
    names = sorted(p.name for p in directory.iterdir())
    stages = ["trace", "fold_constants", "cse", "dce"]
    for i, stage in enumerate(stages):
        assert any(n.endswith(f"_Net_{i:02d}_{stage}.ir") for n in names), names
        assert any(n.endswith(f"_Net_{i:02d}_{stage}.dot") for n in names), names
    assert any(n.endswith("_Net_backend.py") for n in names)


def test_ir_lines_name_scope_shape_and_source(tmp_path):
    directory = _compile(tmp_path)
    text = next(directory.glob("*_Net_03_dce.ir")).read_text()
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
