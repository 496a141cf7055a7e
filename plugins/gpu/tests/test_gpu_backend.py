"""The GPU backend beyond single primitives: discovery and availability, data staying on the
device, Parameters as variables, optimizers and training steps against the CPU backend in both
modes (a graph step being one XLA call), Python callbacks in graphs, fallback, and the context
keys it applies to TensorFlow."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import ember
from ember import Parameter, Tensor, context, nn, ops
from ember import _executor as executor_state
from ember.graph.compiler import compile_count
from ember.ops import operations as P
from ember.testing import check_mode_parity, compare_backends
from ember_gpu import device as gpu_device
from ember_gpu.kernels import KERNELS

tf = gpu_device.import_tensorflow()
from tensorflow.python.framework import config as tf_config  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
KEYS = ("device_target", "mode", "fallback_device_target", "pynative_synchronize",
        "enable_graph_kernel", "graph_kernel_flags", "deterministic")


@pytest.fixture(autouse=True)
def on_gpu() -> Iterator[None]:
    """Each test starts on GPU in PyNative mode; the context is restored after it."""
    saved = {key: context.get_context(key) for key in KEYS}
    context.set_context(device_target="GPU", mode=context.PYNATIVE_MODE)
    yield
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        context.set_context(**saved)


def run_python(code: str, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k != gpu_device.ON_CPU_ENV}
    environment.update(env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=environment, timeout=300)


# -- discovery and availability -------------------------------------------------------------
def test_discovery_imports_no_tensorflow() -> None:
    result = run_python("import sys, ember; from ember import _plugins; "
                        "print(sorted(_plugins.registry().specs)); "
                        "print('tensorflow' in sys.modules)")
    assert result.returncode == 0, result.stderr
    targets, imported = result.stdout.split("\n")[:2]
    assert {"CPU", "GPU"} <= set(ast.literal_eval(targets)) and imported == "False"


def test_info_on_tensorflows_cpu_says_so_without_importing_tensorflow() -> None:
    result = run_python("import sys, runpy; sys.argv = ['ember', 'info']\n"
                        "try:\n    runpy.run_module('ember', run_name='__main__')\n"
                        "except SystemExit:\n    pass\n"
                        "print('tensorflow imported:', 'tensorflow' in sys.modules)",
                        **{gpu_device.ON_CPU_ENV: "1"})
    assert result.returncode == 0, result.stderr
    gpu_line = next(line for line in result.stdout.splitlines() if "ember-gpu" in line)
    assert "available; runs on: TensorFlow's CPU device (EMBER_GPU_ON_CPU=1), not a GPU" \
        in gpu_line and f"tensorflow: {tf.__version__}" in gpu_line
    assert result.stdout.rstrip().endswith("tensorflow imported: False")


@pytest.mark.skipif(bool(tf.config.list_physical_devices("GPU")), reason="a GPU is visible")
def test_without_a_gpu_the_backend_says_why_and_what_to_do() -> None:
    result = run_python("from ember import context\n"
                        "context.set_context(device_target='GPU')")
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert "BackendError: device_target 'GPU' is installed (ember-gpu) but unavailable" in last
    assert "nvidia" in last and "EMBER_GPU_ON_CPU=1" in last
    # The default device_target skips it for the CPU backend.
    result = run_python("import sys; from ember import context\n"
                        "print(context.get_context('device_target'))\n"
                        "print('tensorflow' in sys.modules)")
    # Only where an NVIDIA driver is installed does finding out need TensorFlow.
    imported = gpu_device.nvidia_driver_found()
    assert result.stdout.split() == ["CPU", str(imported)], result.stderr


def test_every_core_primitive_has_a_kernel() -> None:
    from ember.ops.operations.array_ops import _Static
    from ember.ops.primitive import primitive_classes

    missing = {p.__name__ for p in primitive_classes()
               if p.__name__ not in KERNELS and not issubclass(p, _Static)}
    gaps = Path(__file__).with_name("known_gaps.txt").read_text().splitlines()
    listed = {line.split("#")[0].strip() for line in gaps} & missing
    backward = {name for name in missing for forward in listed
                if name.startswith(forward) and name.endswith("Grad")}
    assert missing == listed | backward, "a primitive without a GPU kernel must be a known gap"


# -- data on the device ---------------------------------------------------------------------
def test_results_stay_on_the_device_and_host_tensors_move_once() -> None:
    x = Tensor(np.array([[1.0, -2.0], [3.0, -4.0]], np.float32))
    before = executor_state.state.transfers
    y = ops.mul(ops.relu(x), x)
    assert isinstance(y._data, tf.Tensor) and y._device is gpu_device.current()
    assert executor_state.state.transfers - before == 1  # x moved once, then stays
    z = ops.add(y, x)
    assert executor_state.state.transfers - before == 1
    np.testing.assert_array_equal(z.asnumpy(), [[2, -2], [12, -4]])
    assert repr(ops.reduce_sum(z)) == "Tensor(shape=[], dtype=Float32, value= 8)"


def test_a_parameter_becomes_a_variable_that_assign_updates_in_place() -> None:
    p = Parameter(Tensor(np.zeros(3, np.float32)), name="p")
    P.Assign()(p, Tensor(np.array([1.0, 2.0, 3.0], np.float32)))
    assert isinstance(p._data, tf.Variable)
    P.AssignAdd()(p, Tensor(np.float32(1.0)))
    np.testing.assert_array_equal(p.asnumpy(), [2, 3, 4])
    # Back on the CPU the Parameter moves to host memory, where in-place kernels work too.
    context.set_context(device_target="CPU")
    P.AssignAdd()(p, Tensor(np.float32(1.0)))
    np.testing.assert_array_equal(p.asnumpy(), [3, 4, 5])
    assert p._device is None


# -- training against the CPU backend ----------------------------------------------------------
class Mlp(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Dense(4, 8)
        self.fc2 = nn.Dense(8, 3)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def _train(target: str, mode: int, optimizer: type, steps: int = 3, **kwargs) -> list:
    """Losses and final parameters of ``steps`` training steps from seeded parameters."""
    context.set_context(device_target=target, mode=mode)
    ember.set_seed(3)
    net = Mlp()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss),
                               optimizer(net.trainable_params(), **kwargs))
    step.set_train()
    rng = np.random.default_rng(0)
    x = Tensor(rng.standard_normal((6, 4)).astype(np.float32))
    y = Tensor(rng.integers(0, 3, 6).astype(np.int32))
    losses = [float(step(x, y).asnumpy()) for _ in range(steps)]
    return losses + [p.asnumpy() for p in net.trainable_params()]


OPTIMIZERS = [
    (nn.Momentum, {"learning_rate": 0.1, "momentum": 0.9}),
    (nn.Momentum, {"learning_rate": 0.1, "momentum": 0.9, "use_nesterov": True}),
    (nn.SGD, {"learning_rate": 0.1, "momentum": 0.5, "weight_decay": 0.01}),
    (nn.SGD, {"learning_rate": 0.1}),
    (nn.Adam, {"learning_rate": 0.01}),
    (nn.Adam, {"learning_rate": 0.01, "use_nesterov": True}),
    (nn.AdamWeightDecay, {"learning_rate": 0.01, "weight_decay": 0.1}),
]


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE],
                         ids=["pynative", "graph"])
@pytest.mark.parametrize(("optimizer", "kwargs"), OPTIMIZERS,
                         ids=[f"{o.__name__}-{i}" for i, (o, _) in enumerate(OPTIMIZERS)])
def test_training_steps_match_the_cpu_backend(mode: int, optimizer: type, kwargs: dict) -> None:
    expected = _train("CPU", context.PYNATIVE_MODE, optimizer, **kwargs)
    got = _train("GPU", mode, optimizer, **kwargs)
    # Adam divides by sqrt(v): where a gradient is tiny, float32 rounding of the gradient
    # (summed in another order by TensorFlow) moves the step by up to ~1e-3 of lr.
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-4, atol=5e-5)


UPDATES = [
    (P.ApplyMomentum(use_nesterov=True), ("var", "acc", 0.1, "grad", 0.9)),
    (P.SGD(dampening=0.1, weight_decay=0.01), ("var", "grad", 0.1, "acc", 0.9, "stat")),
    (P.Adam(use_nesterov=True), ("var", "m", "v", 0.9, 0.999, 0.01, 0.9, 0.999, 1e-8, "grad")),
    (P.AdamWeightDecay(), ("var", "m", "v", 0.01, 0.9, 0.999, 1e-6, 0.1, "grad")),
    (P.Assign(), ("var", "grad")),
    (P.AssignAdd(), ("var", "grad")),
]


@pytest.mark.parametrize(("update", "args"), UPDATES, ids=[u.name for u, _ in UPDATES])
def test_in_place_updates_equal_the_cpu_kernels(update, args) -> None:
    """Same inputs on both backends, two steps: every updated state agrees to float32."""
    rng = np.random.default_rng(5)
    start = {name: rng.uniform(0.1, 1.0, (3, 4)).astype(np.float32)
             for name in ("var", "acc", "m", "v", "grad", "stat")}
    states = {}
    for target in ("CPU", "GPU"):
        context.set_context(device_target=target)
        params = {name: Parameter(Tensor(value), name=name) for name, value in start.items()}
        for _ in range(2):
            update(*(params.get(a, a) if isinstance(a, str) else a for a in args))
        states[target] = {name: p.asnumpy() for name, p in params.items()}
    for name in start:
        np.testing.assert_allclose(states["GPU"][name], states["CPU"][name], rtol=1e-6,
                                   err_msg=name)


def test_a_graph_training_step_is_one_xla_call_updating_variables() -> None:
    context.set_context(mode=context.GRAPH_MODE)
    net = Mlp()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.Momentum(net.trainable_params(), 0.1, 0.9))
    x, y = Tensor(np.ones((2, 4), np.float32)), Tensor(np.zeros((2, 3), np.float32))
    before = compile_count()
    first = step(x, y).asnumpy()
    weights = [p._data for p in net.trainable_params()]
    second = step(x, y).asnumpy()
    assert compile_count() == before + 1
    assert all(isinstance(w, tf.Variable) for w in weights)
    assert [p._data for p in net.trainable_params()] == weights  # updated in place
    assert second < first
    (compiled,) = step._graph_cache.entries.values()
    assert compiled.runner.jit and "XLA" in repr(compiled.runner)


class LoopedRnn(nn.Cell):
    """A while loop on a tensor with a branch inside, updating a Parameter (Assign)."""

    def __init__(self) -> None:
        super().__init__()
        self.w = Parameter(Tensor(np.full((3, 3), 0.3, np.float32)), name="w")
        self.steps = Parameter(Tensor(np.int32(0)), name="steps")

    def construct(self, h: Tensor, n: Tensor) -> Tensor:
        t = 0
        while t < n:
            h = ops.tanh(ops.matmul(h, self.w)) if t < 2 else h * 2
            self.steps = self.steps + 1
            t = t + 1
        return h


def test_control_flow_compiles_whole_with_xla_and_matches_the_cpu_backend() -> None:
    h, n = Tensor(np.eye(3, dtype=np.float32)), Tensor(np.int32(4))
    results = {}
    for target in ("CPU", "GPU"):
        context.set_context(mode=context.GRAPH_MODE, device_target=target)
        net = LoopedRnn()
        out = net(h, n).asnumpy()
        grad = ops.GradOperation()(net)(h, n).asnumpy()
        results[target] = out, grad, net.steps.asnumpy()
    for got, want in zip(results["GPU"], results["CPU"], strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    assert results["GPU"][2] == 8  # the forward pass and the gradient's each ran 4 trips
    (compiled,) = net._graph_cache.entries.values()
    assert compiled.runner.jit and "XLA" in repr(compiled.runner)


class SinLoop(nn.Cell):
    """``x = sin(x) * w``, ``n`` times."""

    def construct(self, x: Tensor, w: Tensor, n: Tensor) -> Tensor:
        i = 0
        while i < n:
            x = ops.sin(x) * w
            i = i + 1
        return x


class GradOfLoop(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.net = SinLoop()
        self.grad = ops.GradOperation(get_all=True)

    def construct(self, x: Tensor, w: Tensor, n: Tensor) -> tuple:
        return self.grad(self.net)(x, w, n)


@pytest.mark.parametrize("n", [0, 5])
def test_a_loop_gradient_reads_the_iterations_saved_in_tensor_arrays(n: int) -> None:
    x, w = Tensor(np.float32([0.5, -0.3])), Tensor(np.float32([1.2, 0.7]))
    results = {}
    for target in ("CPU", "GPU"):
        context.set_context(mode=context.GRAPH_MODE, device_target=target)
        net = GradOfLoop()
        results[target] = [g.asnumpy() for g in net(x, w, Tensor(np.int32(n)))]
    for got, want in zip(results["GPU"], results["CPU"], strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    (compiled,) = net._graph_cache.entries.values()
    assert not compiled.runner.jit and "tf.function" in repr(compiled.runner)  # XLA: no sizes


def test_lenet_layers_agree_with_the_cpu_backend_and_across_modes() -> None:
    sys.path.insert(0, str(ROOT / "contrib" / "lenet"))
    from lenet import LeNet5

    net = LeNet5()
    x = Tensor(np.random.default_rng(1).standard_normal((2, 1, 32, 32)).astype(np.float32))
    report = compare_backends(net, x, targets=["GPU"])
    assert report.ok, str(report)
    report = check_mode_parity(net, x)
    assert report.ok, str(report)


# -- Python in graphs, and fallback -------------------------------------------------------------
def test_hooks_and_print_run_at_every_call_of_a_graph(capsys) -> None:
    seen = []

    class Net(nn.Cell):
        def __init__(self) -> None:
            super().__init__()
            self.hook = ops.HookBackward(lambda grads: seen.append(grads[0].asnumpy()))

        def construct(self, x):
            y = self.hook(ops.mul(x, x))
            ops.Print()("y:", y)
            return ops.reduce_sum(y)

    context.set_context(mode=context.GRAPH_MODE)
    grad = ops.GradOperation()(Net())
    x = Tensor(np.array([1.0, 2.0], np.float32))
    for _ in range(2):
        np.testing.assert_allclose(grad(x).asnumpy(), [2.0, 4.0])
    assert len(seen) == 2 and capsys.readouterr().out.count("y:") == 2


def test_a_missing_kernel_runs_on_the_fallback_backend_in_both_modes(monkeypatch) -> None:
    monkeypatch.delitem(KERNELS, "Tanh")
    context.set_context(fallback_device_target="CPU")
    x = Tensor(np.array([0.5, -1.0], np.float32))
    f = ember.ms_function(lambda x: ops.mul(ops.tanh(x), x))
    expected = np.tanh([0.5, -1.0]) * [0.5, -1.0]
    with pytest.warns(UserWarning, match="Tanh has no kernel on GPU backend: it runs on "
                                         "fallback_device_target 'CPU'"):
        np.testing.assert_allclose(ops.mul(ops.tanh(x), x).asnumpy(), expected, rtol=1e-6)
    calls = executor_state.fallback_report()["Tanh"]
    for _ in range(2):  # compiled once, calling back into the CPU kernel at each run
        np.testing.assert_allclose(f(x).asnumpy(), expected, rtol=1e-6)
    assert executor_state.fallback_report()["Tanh"] == calls + 2


# -- context --------------------------------------------------------------------------------
def test_switches_reach_tensorflow() -> None:
    context.set_context(pynative_synchronize=True, deterministic="ON", enable_graph_kernel=True)
    assert tf.config.experimental.get_synchronous_execution()
    assert executor_state.load_eager().synchronize
    np.testing.assert_array_equal(ops.add(Tensor(1.0), Tensor(2.0)).asnumpy(), 3.0)
    assert tf_config.is_op_determinism_enabled()
    assert tf.config.optimizer.get_jit() == "autoclustering"
    context.set_context(graph_kernel_flags="--opt_level=0")
    assert not tf.config.optimizer.get_jit()
    context.set_context(pynative_synchronize=False, deterministic="OFF",
                        enable_graph_kernel=False, graph_kernel_flags="")
    assert not tf.config.optimizer.get_jit() and not tf_config.is_op_determinism_enabled()
    assert not executor_state.load_eager().synchronize


@pytest.mark.skipif(bool(tf.config.list_physical_devices("GPU")),
                    reason="TensorFlow's GPU Gather gives zeros for out-of-range indices")
def test_with_pynative_synchronize_an_error_names_the_users_line() -> None:
    context.set_context(pynative_synchronize=True)
    x = Tensor(np.ones((3, 2), np.float32))
    line = sys._getframe().f_lineno + 2
    with pytest.raises(RuntimeError) as error:
        ops.gather(x, Tensor(np.array([5], np.int32)), 0).asnumpy()  # index out of range
    assert f"Gather failed at {__file__}:{line}" in str(error.value)


def test_mempool_block_size_warns_that_it_has_no_effect() -> None:
    with pytest.warns(UserWarning, match="mempool_block_size='2GB'\\) has no effect on "
                                         "device_target 'GPU'"):
        context.set_context(mempool_block_size="2GB")
    context.set_context(mempool_block_size="1GB")


@pytest.mark.parametrize(("key", "value"), [("device_id", 1), ("max_device_memory", "2GB")])
def test_what_tensorflow_fixed_at_start_cannot_change(key: str, value: object) -> None:
    ops.add(Tensor(1.0), Tensor(2.0))  # the device has started
    before = context.get_context(key)
    with pytest.raises(RuntimeError, match=f"set_context\\({key}=.*the GPU backend started on "
                                           f"{key}=.*set {key} before the first GPU operation"):
        context.set_context(**{key: value})
    assert context.get_context(key) == before  # nothing changed


def test_lenet_example_trains_on_the_gpu_backend_as_on_the_cpu(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "contrib" / "lenet"))
    import train

    argv = ["--epochs", "1", "--batch-size", "64", "--ckpt-dir"]
    on_cpu = train.main([*argv, str(tmp_path / "cpu"), "--device", "CPU"])
    on_gpu = train.main([*argv, str(tmp_path / "gpu"), "--device", "GPU"])
    assert abs(on_gpu - on_cpu) <= 1 / 360  # at most one of the 360 test digits differs
    assert [p.name for p in (tmp_path / "gpu").glob("*.ckpt")] == ["lenet-1_22.ckpt"]


def test_the_profiler_times_each_op_after_the_device_finished(tmp_path: Path) -> None:
    profiler = ember.Profiler(output_path=str(tmp_path))
    ops.matmul(Tensor(np.ones((4, 4), np.float32)), Tensor(np.ones((4, 4), np.float32)))
    files = profiler.analyse()
    assert str(tmp_path / "profiler" / "gpu_timeline_display_0.json") in files
    assert [e[:3] for e in profiler.events] == [
        ("Default/MatMul-op0", "MatMul", [((4, 4), "Float32"), ((4, 4), "Float32")])]


def test_the_result_of_an_in_place_update_can_be_a_graph_input() -> None:
    context.set_context(mode=context.GRAPH_MODE)
    square = ember.ms_function(lambda a: ops.mul(a, a))
    np.testing.assert_array_equal(square(Tensor(np.ones(2, np.float32))).asnumpy(), [1, 1])
    p = Parameter(Tensor(np.ones(2, np.float32)), name="p")
    updated = P.Assign()(p, Tensor(np.array([2.0, 3.0], np.float32)))  # holds p's variable
    np.testing.assert_array_equal(square(updated).asnumpy(), [4, 9])


def test_an_error_while_a_graph_runs_names_the_primitive_and_the_users_line() -> None:
    table = Tensor(np.ones((3, 2), np.float32))

    @ember.ms_function
    def pick(indices):
        ops.Print()("picking")  # Python in the graph: TensorFlow runs it op by op, not XLA
        return ops.gather(table, indices, 0)

    line = pick.__wrapped__.__code__.co_firstlineno + 3
    np.testing.assert_array_equal(pick(Tensor(np.array([2], np.int32))).asnumpy(), [[1, 1]])
    if tf.config.list_physical_devices("GPU"):
        pytest.skip("TensorFlow's GPU Gather gives zeros for an index out of range")
    with pytest.raises(RuntimeError, match=f"Gather failed at {__file__}:{line} \\(scope "
                                           "Default/Gather-op1\\) in graph 'pick' on the GPU "
                                           "backend: InvalidArgumentError"):
        pick(Tensor(np.array([7], np.int32)))


@pytest.fixture
def fake_gpus(monkeypatch) -> list:
    """TensorFlow reporting two GPUs, and the device configuration calls made to it."""
    calls: list = []
    config = tf.config
    monkeypatch.setattr(gpu_device, "_DEVICE", None)  # start afresh; restored after the test
    monkeypatch.setattr(config, "list_physical_devices",
                        lambda kind=None: ["gpu0", "gpu1"] if kind == "GPU" else ["cpu0"])
    monkeypatch.setattr(config, "set_visible_devices",
                        lambda devices, kind: calls.append(("visible", devices, kind)))
    monkeypatch.setattr(config.experimental, "set_memory_growth",
                        lambda device, on: calls.append(("growth", device, on)))
    monkeypatch.setattr(config, "set_logical_device_configuration",
                        lambda device, logical: calls.append(
                            ("memory_limit", device, [c.memory_limit for c in logical])))
    return calls


@pytest.mark.parametrize(("device_id", "memory", "expected"), [
    (1, "3.5GB", [("visible", ["gpu1"], "GPU"), ("memory_limit", "gpu1", [3584])]),
    (0, "1024GB", [("visible", ["gpu0"], "GPU"), ("growth", "gpu0", True)]),
])
def test_starting_on_a_gpu_selects_it_and_sets_its_memory(fake_gpus, device_id, memory,
                                                           expected) -> None:
    values = {**context._current_values(), "device_id": device_id, "max_device_memory": memory}
    started = gpu_device.start(values)
    assert started.spec == "/GPU:0" and started.name == "GPU (TensorFlow GPU:0)"
    assert fake_gpus == expected
    assert started.started_with == {"device_id": device_id, "max_device_memory": memory}


def test_a_device_id_beyond_the_gpus_is_refused(fake_gpus) -> None:
    with pytest.raises(ValueError, match="device_id 2 names no GPU: TensorFlow sees 2 "
                                         "\\(device_id 0 to 1\\)"):
        gpu_device.start({**context._current_values(), "device_id": 2})
    assert gpu_device.current() is None and fake_gpus == []


def test_checkpoints_round_trip_through_device_parameters(tmp_path: Path) -> None:
    context.set_context(mode=context.GRAPH_MODE)
    net = Mlp()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.Momentum(net.trainable_params(), 0.1, 0.9))
    x, y = Tensor(np.ones((2, 4), np.float32)), Tensor(np.zeros((2, 3), np.float32))
    step(x, y)
    ember.save_checkpoint(net, str(tmp_path / "net.ckpt"))
    saved = net(x).asnumpy()
    step(x, y)  # the parameters move on ...
    assert not np.allclose(net(x).asnumpy(), saved)
    ember.load_param_into_net(net, ember.load_checkpoint(str(tmp_path / "net.ckpt")))
    np.testing.assert_array_equal(net(x).asnumpy(), saved)  # ... and the graph reads them back
    context.set_context(device_target="CPU")
    np.testing.assert_allclose(net(x).asnumpy(), saved, rtol=1e-6)


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_gather_nd_out_of_range_gathers_zeros_as_mindspores_gpu_kernel(mode) -> None:
    context.set_context(mode=mode)
    x = np.arange(20, dtype=np.float32).reshape(4, 5) + 1
    indices = np.array([[4000], [1], [-1], [-5], [300000]], np.int32)
    out = P.GatherNd()(Tensor(x), Tensor(indices)).asnumpy()
    np.testing.assert_array_equal(out, [np.zeros(5), x[1], x[-1], np.zeros(5), np.zeros(5)])
    both = P.GatherNd()(Tensor(x), Tensor(np.array([[1, 9], [2, 3]], np.int32))).asnumpy()
    np.testing.assert_array_equal(both, [0, x[2, 3]])
