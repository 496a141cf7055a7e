"""``ember.Profiler`` on the CPU backend: its options, its errors, and the profile it writes."""

from __future__ import annotations

import pstats
from pathlib import Path

import numpy as np
import pytest

from ember import Profiler, Tensor, context, ops
from ember.profiler import Profiler as ProfilerFromModule


@pytest.fixture(autouse=True)
def on_cpu() -> None:
    context.set_context(device_target="CPU", mode=context.PYNATIVE_MODE)


def test_profiles_what_runs_between_start_and_analyse(tmp_path: Path) -> None:
    profiler = Profiler(output_path=str(tmp_path))
    x = Tensor(np.ones((8, 8), np.float32))
    for _ in range(5):
        x = ops.matmul(x, x)
    files = profiler.analyse()
    assert sorted(Path(f).suffix for f in files) == [".pstats", ".txt"]
    assert all(Path(f).parent == tmp_path / "profiler" for f in files)
    stats = pstats.Stats(next(f for f in files if f.endswith(".pstats")))
    calls = {(Path(file).name, name): n for (file, _, name), (_, n, *_) in stats.stats.items()}
    assert calls[("primitive.py", "run")] == 5  # each MatMul went through ember's dispatch
    assert "primitive.py" in Path(next(f for f in files if f.endswith(".txt"))).read_text()
    assert profiler.analyse() == files  # analysing again writes nothing more


def test_start_stop_and_their_errors(tmp_path: Path) -> None:
    profiler = ProfilerFromModule(output_path=str(tmp_path), start_profile=False)
    with pytest.raises(RuntimeError, match="not collecting; call start\\(\\) first"):
        profiler.stop()
    profiler.start()
    with pytest.raises(RuntimeError, match="already collecting; call stop\\(\\) first"):
        profiler.start()
    profiler.stop()
    assert len(profiler.files) == 2


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"output": "x"}, TypeError, "unknown option 'output'; it accepts output_path, "),
    ({"output_path": 3}, TypeError, "output_path must be a str, but got 3"),
    ({"start_profile": "yes"}, TypeError, "start_profile must be a bool"),
    ({"profile_memory": True}, ValueError, "profile_memory=True collects Ascend data"),
])
def test_bad_options_are_refused(kwargs: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        Profiler(**{"start_profile": False, **kwargs})
