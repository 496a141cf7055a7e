"""``ember.Profiler``: one event per primitive run, named by scope, in a Chrome trace and in
MindSpore's summary tables; its options and errors; nothing observed once it stops."""

from __future__ import annotations

import csv
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from ember import Profiler, Tensor, context, nn, ops
from ember._executor import state
from ember._instrument import ObservedExecutor
from ember.profiler import Profiler as ProfilerFromModule

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "contrib" / "lenet"))
from lenet import LeNet5  # noqa: E402

CONV1 = "Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d/Conv2D-op0"


@pytest.fixture(autouse=True)
def on_cpu() -> None:
    context.set_context(device_target="CPU", mode=context.PYNATIVE_MODE)


def train_step() -> tuple[nn.Cell, Tensor, Tensor]:
    net = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss),
                               nn.Momentum(net.trainable_params(), 0.01, 0.9))
    rng = np.random.default_rng(0)
    return (step, Tensor(rng.random((2, 1, 32, 32), np.float32)),
            Tensor(np.array([3, 7], np.int32)))


def check_trace_event_format(trace: dict) -> list[dict]:
    """The checks of the Trace Event Format document (JSON object form) for the phases used:
    complete events ``X`` and metadata events ``M``; returns the ``X`` events."""
    assert set(trace) <= {"traceEvents", "displayTimeUnit", "otherData", "metadata"}
    assert trace["displayTimeUnit"] in ("ms", "ns")
    complete = []
    for event in trace["traceEvents"]:
        assert event["ph"] in ("X", "M"), event
        assert isinstance(event["name"], str) and isinstance(event["pid"], int)
        if event["ph"] == "M":
            assert event["name"] in ("process_name", "thread_name", "process_sort_index",
                                     "thread_sort_index")
            assert isinstance(event["args"]["name"], str)
            continue
        assert isinstance(event["tid"], int) and isinstance(event["cat"], str)
        assert isinstance(event["ts"], float | int) and event["ts"] >= 0
        assert isinstance(event["dur"], float | int) and event["dur"] >= 0
        assert isinstance(event.get("args", {}), dict)
        complete.append(event)
    json.dumps(trace, allow_nan=False)  # plain JSON: no NaN or infinity
    return complete


def profile_steps(tmp_path: Path, steps: int) -> tuple[Profiler, nn.Cell, list[dict]]:
    step, x, y = train_step()
    profiler = Profiler(output_path=str(tmp_path))
    for _ in range(steps):
        step(x, y)
    files = profiler.analyse()
    trace_file = tmp_path / "profiler" / "cpu_timeline_display_0.json"
    assert str(trace_file) in files
    return profiler, step, check_trace_event_format(json.loads(trace_file.read_text()))


def test_graph_mode_trace_has_every_node_of_the_step_with_its_scope(tmp_path: Path,
                                                                      capsys) -> None:
    context.set_context(mode=context.GRAPH_MODE)
    profiler, step, events = profile_steps(tmp_path, 2)
    graph = next(iter(step.__dict__["_graph_cache"].entries.values())).graph
    ops_ = [e for e in events if e["tid"] == 0]
    for number in (1, 2):  # each step runs each node once, in the graph's order
        names = [e["name"] for e in ops_ if e["args"]["step"] == number]
        assert names == [node.scope for node in graph.nodes]
    conv1 = next(e for e in ops_ if e["name"] == CONV1)
    assert conv1["cat"] == "Conv2D"
    assert conv1["args"]["input_shapes"] == [[2, 1, 32, 32], [6, 1, 5, 5]]
    assert conv1["args"]["input_dtypes"] == ["Float32", "Float32"]
    steps = [e for e in events if e["tid"] == 1]
    assert [e["name"] for e in steps] == ["step 1", "step 2"]
    for s in steps:  # a step's slice spans its ops
        inside = [e for e in ops_ if s["ts"] <= e["ts"] and
                  e["ts"] + e["dur"] <= s["ts"] + s["dur"] + 1e-3]
        assert len(inside) == len(graph.nodes)
    printed = capsys.readouterr().out
    assert "Op type statistics" in printed and "Step trace" in printed
    assert CONV1 in printed


def test_pynative_runs_the_same_primitives_as_the_graph(tmp_path: Path) -> None:
    _, step, events = profile_steps(tmp_path / "p", 3)
    context.set_context(mode=context.GRAPH_MODE)
    step(*train_step()[1:])
    graph = next(iter(step.__dict__["_graph_cache"].entries.values())).graph
    ops_ = [e for e in events if e["tid"] == 0 and e["args"]["step"] == 2]
    assert Counter(e["cat"] for e in ops_) == Counter(n.prim.name for n in graph.nodes)
    names = [e["name"] for e in ops_]
    assert names[0] == CONV1  # PyNative names ops as GRAPH_MODE does
    assert "Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/MatMul-op" in " ".join(names)
    assert any(n.startswith("Gradients/Default/") for n in names)  # the backward pass
    step3 = [e["name"] for e in events if e["tid"] == 0 and e["args"]["step"] == 3]
    assert step3 == names  # a call site keeps its name from step to step


def test_tables_add_up_to_the_trace(tmp_path: Path) -> None:
    context.set_context(mode=context.GRAPH_MODE)
    profiler, _, events = profile_steps(tmp_path, 3)
    ops_ = [e for e in events if e["tid"] == 0]
    folder = tmp_path / "profiler"
    with open(folder / "cpu_op_type_info_0.csv") as f:
        types = {row["op_type"]: row for row in csv.DictReader(f)}
    assert set(types) == {e["cat"] for e in ops_}
    for kind, row in types.items():
        spans = [e["dur"] for e in ops_ if e["cat"] == kind]
        assert int(row["type_occurrences"]) == len(spans)
        assert float(row["total_time(us)"]) == pytest.approx(sum(spans), abs=0.01)
    assert sum(float(r["total_proportion(%)"]) for r in types.values()) == pytest.approx(
        100, abs=0.1)
    with open(folder / "cpu_op_detail_info_0.csv") as f:
        detail = {row["op_full_name"]: row for row in csv.DictReader(f)}
    assert int(detail[CONV1]["op_occurrences"]) == 3
    assert detail[CONV1]["input_shapes"] == "[2, 1, 32, 32];[6, 1, 5, 5]"
    with open(folder / "step_trace_raw_0_detail_time.csv") as f:
        trace = list(csv.DictReader(f))
    assert [int(r["step_num"]) for r in trace] == [1, 2, 3]
    first_update = next(i for i, e in enumerate(ops_) if e["cat"] == "ApplyMomentum")
    for row in trace:  # found points: the step's first op, the last before the optimizer
        assert row["fp_point"] == CONV1
        assert row["bp_point"] == ops_[first_update - 1]["name"]
        total = float(row["total(us)"])
        assert float(row["fp_and_bp(us)"]) + float(row["tail(us)"]) == pytest.approx(
            total, abs=0.01)


def test_fp_and_bp_points_from_profiling_options(tmp_path: Path) -> None:
    context.set_context(mode=context.GRAPH_MODE)
    bp = "Default/network-WithLossCell/_backbone-LeNet5/fc1-Dense/MatMul-op7"
    with pytest.warns(DeprecationWarning):
        context.set_context(profiling_options=json.dumps({"bp_point": bp}))
    profiler, _, events = profile_steps(tmp_path, 1)
    (row,) = profiler.step_trace()
    assert row["bp_point"] == bp and row["fp_point"] == CONV1
    bp_event = next(e for e in events if e["name"] == bp)
    assert row["tail(us)"] == pytest.approx(
        row["end_point(us)"] - bp_event["ts"] - bp_event["dur"], abs=0.01)


class Doubling(nn.Cell):
    def construct(self, x):
        while x.sum() < 10:
            x = x * 2
        return x


def test_the_nodes_of_a_loop_body_are_events_at_each_iteration(tmp_path: Path) -> None:
    context.set_context(mode=context.GRAPH_MODE)
    profiler = Profiler(output_path=str(tmp_path))
    out = Doubling()(Tensor(np.ones(3, np.float32)))  # 3 -> 6 -> 12: two trips
    profiler.stop()
    np.testing.assert_array_equal(out.asnumpy(), [4, 4, 4])
    kinds = [e[1] for e in profiler.events]
    assert kinds == ["ReduceSum", "Less", "Mul"] * 2 + ["ReduceSum", "Less"]


def test_enable_profiling_in_the_context(tmp_path: Path) -> None:
    with pytest.warns(DeprecationWarning):
        context.set_context(profiling_options=json.dumps({"output": str(tmp_path)}),
                            enable_profiling=True)
    ops.add(Tensor(1.0), Tensor(2.0))
    with pytest.warns(DeprecationWarning):
        context.set_context(enable_profiling=False)
    trace = json.loads((tmp_path / "profiler" / "cpu_timeline_display_0.json").read_text())
    assert [e["name"] for e in check_trace_event_format(trace)] == ["Default/Add-op0"]


def test_nothing_is_observed_after_stop(tmp_path: Path) -> None:
    x = Tensor(np.ones((3, 3), np.float32))
    profiler = Profiler(output_path=str(tmp_path))
    ops.add(x, x)
    assert isinstance(state.eager, ObservedExecutor)
    profiler.stop()
    ops.add(x, x)
    assert not isinstance(state.eager, ObservedExecutor)
    assert len(profiler.events) == 1
    assert profiler.events[0][2] == [((3, 3), "Float32"), ((3, 3), "Float32")]


def test_start_stop_and_their_errors(tmp_path: Path) -> None:
    profiler = ProfilerFromModule(output_path=str(tmp_path), start_profile=False)
    with pytest.raises(RuntimeError, match="not collecting; call start\\(\\) first"):
        profiler.stop()
    profiler.start()
    with pytest.raises(RuntimeError, match="already collecting; call stop\\(\\) first"):
        profiler.start()
    profiler.stop()
    assert profiler.files == []  # nothing ran: nothing written


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"output": "x"}, TypeError, "unknown option 'output'; it accepts output_path, "),
    ({"output_path": 3}, TypeError, "output_path must be a str, but got 3"),
    ({"start_profile": "yes"}, TypeError, "start_profile must be a bool"),
    ({"profile_memory": True}, ValueError, "profile_memory=True collects Ascend data"),
])
def test_bad_options_are_refused(kwargs: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        Profiler(**{"start_profile": False, **kwargs})
