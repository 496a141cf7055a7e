"""MindSpore 1.6's quantization primitives (``ops.operations._quant_ops``): what the kit's
table cannot show: quant_delay over calls, the running statistics BatchNormFold updates, the
straight-through gradient, and the validation errors."""

import numpy as np
import pytest

from ember import Parameter, Tensor, context, ops
from ember.ops import operations as P
from ember.ops.operations import _quant_ops as Q


@pytest.fixture(autouse=True)
def _pynative_cpu():
    context.set_context(mode=context.PYNATIVE_MODE, device_target="CPU")


def _t(*values):
    return Tensor(np.array(values, np.float32))


def test_the_module_and_p_expose_the_primitives():
    assert Q.FakeQuantPerLayer is P.FakeQuantPerLayer
    assert {"BatchNormFold", "CorrectionMul", "MinMaxUpdatePerChannel"} <= set(Q.__all__)


def test_quant_delay_passes_x_through_for_its_first_training_calls():
    x, lo, hi = _t(0.1, 1.03), _t(0.0), _t(2.55)  # levels 0.01 apart
    fake = Q.FakeQuantPerLayer(quant_delay=2)
    outs = [fake(x, lo, hi).asnumpy() for _ in range(3)]
    np.testing.assert_allclose(outs[0], [0.1, 1.03], rtol=1e-6)
    np.testing.assert_allclose(outs[1], [0.1, 1.03], rtol=1e-6)
    np.testing.assert_allclose(outs[2], [0.1, 1.03], atol=0.006)  # quantized from now on
    assert not np.allclose(Q.FakeQuantPerLayer(num_bits=4)(x, lo, hi).asnumpy(), [0.1, 1.03])
    inference = Q.FakeQuantPerLayer(num_bits=4, quant_delay=5, training=False)
    np.testing.assert_allclose(inference(x, lo, hi).asnumpy(), [0.17, 1.02], atol=1e-6)


def test_the_gradient_passes_inside_the_nudged_range_only():
    x, lo, hi = _t(-1.0, 0.5, 3.0), _t(-0.5), _t(2.0)
    grad = ops.GradOperation()(Q.FakeQuantPerLayer())(x, lo, hi)
    np.testing.assert_array_equal(grad.asnumpy(), [0.0, 1.0, 0.0])


def test_batch_norm_fold_updates_its_parameters_until_freeze_bn():
    x = np.arange(8, dtype=np.float32).reshape(2, 2, 2)  # channel 0: 0 1 4 5, channel 1: 2 3 6 7
    mean, variance = Parameter(_t(1.0, 1.0), "mean"), Parameter(_t(1.0, 1.0), "variance")
    fold = Q.BatchNormFold(momentum=0.5, epsilon=1e-12, freeze_bn=1)
    batch_mean, batch_std, running_mean, running_std = fold(
        Tensor(x), mean, variance, Tensor(np.array([0], np.int32)))
    np.testing.assert_allclose(batch_mean.asnumpy(), [2.5, 4.5])
    np.testing.assert_allclose(batch_std.asnumpy(), [np.sqrt(4.25)] * 2, rtol=1e-6)
    np.testing.assert_allclose(running_mean.asnumpy(), [1.0, 1.0])
    np.testing.assert_allclose(mean.asnumpy(), [1.75, 2.75])
    np.testing.assert_allclose(variance.asnumpy(), [0.5 + 0.5 * 17 / 3] * 2, rtol=1e-6)
    outs = fold(Tensor(x), mean, variance, Tensor(np.array([1], np.int32)))
    np.testing.assert_allclose(outs[0].asnumpy(), [0.0, 0.0])
    np.testing.assert_allclose(outs[1].asnumpy(), [1.0, 1.0])
    np.testing.assert_allclose(mean.asnumpy(), [1.75, 2.75])  # frozen: not updated


def test_errors_name_the_primitive_and_the_argument():
    with pytest.raises(ValueError, match="FakeQuantPerLayer: 'num_bits' must be one of"):
        Q.FakeQuantPerLayer(num_bits=6)
    with pytest.raises(TypeError, match="'symmetric' must be a bool"):
        Q.FakeQuantPerChannel(symmetric=1)
    with pytest.raises(ValueError, match="'min' must have 3 values"):
        Q.FakeQuantPerChannelGrad()(*(Tensor(np.zeros((3, 3), np.float32)),) * 2,
                                    _t(0, 0), _t(1, 1))
    with pytest.raises(TypeError, match="BatchNormFold: mean must be a Parameter"):
        Q.BatchNormFold()(Tensor(np.zeros((2, 2), np.float32)), _t(0, 0), _t(1, 1),
                          Tensor(np.array([0], np.int32)))
