"""What the conformance kit does not see: the Template backend's own behaviour.

Data lives on the device and moves only when it must; a small network trains in both modes;
a missing kernel is named, and runs on fallback_device_target when the user sets one; the
context hook rejects what the device cannot honour and changes nothing then.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import ember
import numpy as np
import pytest
from ember import _executor, context, nn
from ember.backend import MissingKernelError
from ember.ops import GradOperation
from ember.ops import operations as P

from ember_template.device import DEVICE, DeviceArray

KEYS = ("device_target", "mode", "enable_graph_kernel", "fallback_device_target")


@pytest.fixture(autouse=True)
def on_template() -> Iterator[None]:
    """Each test starts on Template in PyNative mode; the context is restored after it."""
    saved = {key: context.get_context(key) for key in KEYS}
    context.set_context(device_target="Template", mode=context.PYNATIVE_MODE)
    yield
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        context.set_context(**saved)


def test_results_stay_on_the_device_and_only_host_inputs_move() -> None:
    x = ember.Tensor(np.array([[1.0, -2.0], [3.0, -4.0]], np.float32))
    before = _executor.state.transfers
    y = P.Mul()(P.ReLU()(x), 2.0)  # x moves to the device, and so does the host tensor of 2.0
    assert isinstance(y._data, DeviceArray) and y._device is DEVICE
    assert _executor.state.transfers - before == 2
    z = P.Add()(y, y)  # from device to device: no move
    assert _executor.state.transfers - before == 2
    np.testing.assert_array_equal(z.asnumpy(), [[4, 0], [12, 0]])


def test_to_host_refuses_an_array_from_elsewhere() -> None:
    with pytest.raises(TypeError, match=r"Template.to_host expects a DeviceArray, but got "
                                        r"ndarray"):
        DEVICE.to_host(np.zeros(2))


class Net(nn.Cell):
    """``mean(relu(x @ w))``, with ``w`` a Parameter."""

    def __init__(self, w: np.ndarray) -> None:
        super().__init__()
        self.w = ember.Parameter(ember.Tensor(w), name="w")
        self.matmul = P.MatMul()
        self.relu = P.ReLU()
        self.mean = P.ReduceMean()

    def construct(self, x: ember.Tensor) -> ember.Tensor:
        return self.mean(self.relu(self.matmul(x, self.w)))


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_a_network_and_its_gradient_in_both_modes(mode: int) -> None:
    context.set_context(mode=mode)
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal((4, 3)), rng.standard_normal((3, 5))
    net = Net(w)
    loss = net(ember.Tensor(x))
    grads = GradOperation(get_by_list=True)(net, net.trainable_params())(ember.Tensor(x))
    hidden = x @ w
    np.testing.assert_allclose(loss.asnumpy(), np.maximum(hidden, 0).mean(), rtol=1e-12)
    want = x.T @ ((hidden > 0) / hidden.size)
    np.testing.assert_allclose(grads[0].asnumpy(), want, rtol=1e-12)
    assert loss._device is DEVICE and grads[0]._device is DEVICE


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_a_network_trains_with_momentum_on_the_device(mode: int) -> None:
    """ApplyMomentum updates the Parameters where they live, on the device."""
    context.set_context(mode=mode)
    rng = np.random.default_rng(1)
    x, w = rng.standard_normal((4, 3)), rng.standard_normal((3, 5))
    net = Net(w.copy())
    step = nn.TrainOneStepCell(net, nn.Momentum(net.trainable_params(), 0.1, 0.9))
    step.set_train()
    accumulation = np.zeros_like(w)
    lr, momentum = float(np.float32(0.1)), float(np.float32(0.9))  # the optimizer's float32
    for _ in range(2):
        loss = step(ember.Tensor(x))
        hidden = x @ w
        np.testing.assert_allclose(loss.asnumpy(), np.maximum(hidden, 0).mean(), rtol=1e-12)
        accumulation = momentum * accumulation + x.T @ ((hidden > 0) / hidden.size)
        w = w - lr * accumulation
    assert net.w._device is DEVICE
    np.testing.assert_allclose(net.w.asnumpy(), w, rtol=1e-12)


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_missing_kernel_is_named_and_runs_on_the_fallback(mode: int) -> None:
    context.set_context(mode=mode)
    x = ember.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    pow_ = ember.ms_function(lambda t: P.Pow()(t, 2.0)) if mode == context.GRAPH_MODE \
        else (lambda t: P.Pow()(t, 2.0))
    with pytest.raises(MissingKernelError, match=r"the Template \(ember-template\) backend "
                                                 r"has no kernel for primitive Pow"):
        pow_(x)
    context.set_context(fallback_device_target="CPU")
    before = _executor.fallback_report().get("Pow", 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "Pow has no kernel on Template ..."
        y = pow_(x)
    assert _executor.fallback_report()["Pow"] == before + 1
    assert y._device is DEVICE  # the result comes back to the device
    np.testing.assert_array_equal(y.asnumpy(), [1, 4, 9])


def test_context_hook_rejects_graph_kernel_fusion_and_changes_nothing() -> None:
    with pytest.raises(ValueError, match=r"device_target 'Template' \(ember-template\) cannot "
                                         r"honour enable_graph_kernel=True: it has no graph "
                                         r"kernel fusion.*accepts only "
                                         r"enable_graph_kernel=False$"):
        context.set_context(enable_graph_kernel=True, mode=context.GRAPH_MODE)
    assert context.get_context("enable_graph_kernel") is False
    assert context.get_context("mode") == context.PYNATIVE_MODE  # the whole call was refused
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the core: "honoured only on GPU, ..."
        context.set_context(pynative_synchronize=True)  # accepted: kernels are synchronous
        context.set_context(pynative_synchronize=False)


def test_context_hook_checks_a_value_set_on_another_backend() -> None:
    context.set_context(device_target="CPU")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "honoured only on GPU and Ascend"
        context.set_context(enable_graph_kernel=True)
    with pytest.raises(ValueError, match=r"cannot honour enable_graph_kernel=True.*\(set "
                                         r"earlier; pass enable_graph_kernel=False too\)"):
        context.set_context(device_target="Template")
    assert context.get_context("device_target") == "CPU"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        context.set_context(device_target="Template", enable_graph_kernel=False)
    assert context.get_context("device_target") == "Template"
