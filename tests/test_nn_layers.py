"""Layers of ``ember.nn`` against MindSpore 1.6: parameters, printed form, NumPy oracles,
training behaviour, gradients against finite differences, and argument errors."""

from __future__ import annotations

import math
from collections import OrderedDict

import numpy as np
import pytest

import ember
from ember import ParameterTuple, Tensor, nn, ops

RNG = np.random.default_rng(0)


def f64(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape)


def t64(*shape: int) -> Tensor:
    return Tensor(f64(*shape))


def t32(*shape: int) -> Tensor:
    return Tensor(f64(*shape).astype(np.float32))


# -- NumPy oracles ------------------------------------------------------------------------------
def same_pads(size: int, k: int, s: int, d: int = 1) -> tuple[int, int]:
    """MindSpore's 'same' padding: output ceil(size / s), the odd element of padding after."""
    need = max(0, (math.ceil(size / s) - 1) * s + d * (k - 1) + 1 - size)
    return need // 2, need - need // 2


def windows(x: np.ndarray, k, s, d, pads, fill: float):
    """Yield (i, j, window of x over all channels) after padding with ``fill``."""
    (kh, kw), (sh, sw), (dh, dw) = k, s, d
    t, b, left, r = pads
    xp = np.pad(x, ((0, 0), (0, 0), (t, b), (left, r)), constant_values=fill)
    ho = (xp.shape[2] - dh * (kh - 1) - 1) // sh + 1
    wo = (xp.shape[3] - dw * (kw - 1) - 1) // sw + 1
    for i in range(ho):
        for j in range(wo):
            yield i, j, ho, wo, xp[:, :, i * sh:i * sh + dh * (kh - 1) + 1:dh,
                                   j * sw:j * sw + dw * (kw - 1) + 1:dw]


def conv_ref(x, w, b, stride, pad_mode, padding, dilation, group):
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    if pad_mode == "same":
        pads = (*same_pads(h, kh, stride[0], dilation[0]), *same_pads(wd, kw, stride[1],
                                                                        dilation[1]))
    elif pad_mode == "pad":
        pads = (padding,) * 4 if isinstance(padding, int) else padding
    else:
        pads = (0, 0, 0, 0)
    out = None
    per_group = o // group
    for i, j, ho, wo, win in windows(x, (kh, kw), stride, dilation, pads, 0.0):
        if out is None:
            out = np.zeros((n, o, ho, wo))
        for oc in range(o):
            g = oc // per_group
            out[:, oc, i, j] = np.sum(win[:, g * cg:(g + 1) * cg] * w[oc], axis=(1, 2, 3))
    return out if b is None else out + b[None, :, None, None]


def pool_ref(x, k, s, pad_mode, kind):
    k = (k, k) if isinstance(k, int) else k
    s = (s, s) if isinstance(s, int) else s
    pads = ((*same_pads(x.shape[2], k[0], s[0]), *same_pads(x.shape[3], k[1], s[1]))
            if pad_mode == "same" else (0, 0, 0, 0))
    out = None
    for i, j, ho, wo, win in windows(x, k, s, (1, 1), pads, np.nan):
        if out is None:
            out = np.zeros((*x.shape[:2], ho, wo))
        # padding is left out of both the maximum and the mean
        out[:, :, i, j] = (np.nanmax if kind == "max" else np.nanmean)(win, axis=(2, 3))
    return out


def bn_ref(x, gamma, beta, mean, var, eps):
    shape = (1, -1, 1, 1)
    return (gamma.reshape(shape) * (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps)
            + beta.reshape(shape))


def gelu_ref(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def softmax_ref(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


# -- gradients by finite differences ------------------------------------------------------------
def numeric(fn, base: np.ndarray, sens: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """d sum(fn(v) * sens) / dv at ``base`` by central differences."""
    grad = np.zeros_like(base)
    for index in np.ndindex(base.shape):
        values = []
        for step in (eps, -eps):
            moved = base.copy()
            moved[index] += step
            values.append(float(np.sum(fn(moved) * sens)))
        grad[index] = (values[0] - values[1]) / (2 * eps)
    return grad


def check_layer_grads(net: nn.Cell, x: Tensor, rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """Gradients of ``net`` for its input and every trainable parameter, through
    GradOperation(get_all=True, get_by_list=True, sens_param=True), against finite
    differences (in float64)."""
    params = ParameterTuple(net.trainable_params())
    assert params, "the net has no trainable parameters"
    sens = RNG.standard_normal(net(x).shape)
    grad_fn = ops.GradOperation(get_all=True, get_by_list=True, sens_param=True)(net, params)
    (dx,), dparams = grad_fn(x, Tensor(sens))
    want = numeric(lambda v: net(Tensor(v)).asnumpy(), x.asnumpy(), sens)
    np.testing.assert_allclose(dx.asnumpy(), want, rtol=rtol, atol=atol, err_msg="input")
    for param, got in zip(params, dparams, strict=True):
        base = param.asnumpy()

        def with_value(v, param=param):
            param.set_data(Tensor(v))
            return net(x).asnumpy()

        want = numeric(with_value, base, sens)
        param.set_data(Tensor(base))
        np.testing.assert_allclose(got.asnumpy(), want, rtol=rtol, atol=atol,
                                   err_msg=param.name)


# -- a LeNet-like network -----------------------------------------------------------------------
class LeNet(nn.Cell):
    def __init__(self, num_class: int = 10) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, num_class)
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


def test_lenet_parameter_names_and_shapes():
    net = LeNet()
    shapes = {p.name: p.shape for p in net.get_parameters()}
    assert shapes == {
        "conv1.weight": (6, 1, 5, 5), "conv2.weight": (16, 6, 5, 5),
        "fc1.weight": (120, 400), "fc1.bias": (120,), "fc2.weight": (84, 120),
        "fc2.bias": (84,), "fc3.weight": (10, 84), "fc3.bias": (10,),
    }
    assert [p.name for p in net.trainable_params()] == list(shapes)
    assert list(net.parameters_dict()) == list(shapes)
    assert all(p.dtype is ember.float32 for p in net.get_parameters())
    out = net(t32(2, 1, 32, 32))
    assert out.shape == (2, 10) and out.dtype is ember.float32


def test_lenet_repr():
    assert repr(LeNet()).splitlines() == [
        "LeNet<",
        "  (conv1): Conv2d<input_channels=1, output_channels=6, kernel_size=(5, 5), "
        "stride=(1, 1), pad_mode=valid, padding=0, dilation=(1, 1), group=1, has_bias=False, "
        "weight_init=normal, bias_init=zeros, format=NCHW>",
        "  (conv2): Conv2d<input_channels=6, output_channels=16, kernel_size=(5, 5), "
        "stride=(1, 1), pad_mode=valid, padding=0, dilation=(1, 1), group=1, has_bias=False, "
        "weight_init=normal, bias_init=zeros, format=NCHW>",
        "  (fc1): Dense<input_channels=400, output_channels=120, has_bias=True>",
        "  (fc2): Dense<input_channels=120, output_channels=84, has_bias=True>",
        "  (fc3): Dense<input_channels=84, output_channels=10, has_bias=True>",
        "  (relu): ReLU<>",
        "  (max_pool2d): MaxPool2d<kernel_size=2, stride=2, pad_mode=VALID>",
        "  (flatten): Flatten<>",
        "  >",
    ]


def test_set_seed_reproduces_layer_parameters():
    ember.set_seed(42)
    first = [p.asnumpy() for p in LeNet().get_parameters()]
    ember.set_seed(42)
    again = [p.asnumpy() for p in LeNet().get_parameters()]
    for a, b in zip(first, again, strict=True):
        np.testing.assert_array_equal(a, b)
    # the generator moves on: the next network gets other values
    assert not np.array_equal(first[0], LeNet().conv1.weight.asnumpy())
    weight = first[2]  # fc1.weight drawn from Normal(0.01)
    assert abs(weight.std() - 0.01) < 0.001 and abs(weight.mean()) < 0.001


# -- Dense --------------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(5, 3), (2, 4, 3), (2, 1, 2, 3)])
@pytest.mark.parametrize("has_bias", [True, False])
def test_dense_forward(shape, has_bias):
    w, b, x = f64(4, 3), f64(4), f64(*shape)
    net = nn.Dense(3, 4, weight_init=Tensor(w), bias_init=Tensor(b), has_bias=has_bias)
    out = net(Tensor(x))
    want = x @ w.T + (b if has_bias else 0)
    assert out.shape == (*shape[:-1], 4) and out.dtype is ember.float64
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-12)
    assert [p.name for p in net.get_parameters()] == (["weight", "bias"] if has_bias
                                                      else ["weight"])
    assert (net.bias is None) is not has_bias


@pytest.mark.parametrize("activation, fn", [
    ("relu", lambda v: np.maximum(v, 0)),
    ("tanh", np.tanh),
    (nn.Sigmoid(), lambda v: 1 / (1 + np.exp(-v))),
    (ops.ReLU6(), lambda v: np.clip(v, 0, 6)),
])
def test_dense_activation(activation, fn):
    w, x = f64(4, 3) * 3, f64(6, 3)
    net = nn.Dense(3, 4, weight_init=Tensor(w), has_bias=False, activation=activation)
    np.testing.assert_allclose(net(Tensor(x)).asnumpy(), fn(x @ w.T), rtol=1e-12)


def test_dense_defaults_and_repr():
    net = nn.Dense(3, 4)
    assert net.weight.shape == (4, 3) and net.bias.shape == (4,)
    assert net.bias.asnumpy().tolist() == [0.0] * 4
    assert repr(net) == "Dense<input_channels=3, output_channels=4, has_bias=True>"
    assert repr(nn.Dense(3, 4, has_bias=False)) == "Dense<input_channels=3, output_channels=4>"
    assert repr(nn.Dense(3, 4, activation="relu")).splitlines() == [
        "Dense<",
        "  input_channels=3, output_channels=4, has_bias=True, activation=ReLU<>",
        "  (activation): ReLU<>",
        "  >",
    ]


def test_dense_gradients():
    net = nn.Dense(3, 4, weight_init=t64(4, 3), bias_init=t64(4), activation="tanh")
    check_layer_grads(net, t64(5, 3))
    check_layer_grads(nn.Dense(3, 2, weight_init=t64(2, 3), bias_init=t64(2)), t64(2, 2, 3))


# -- Conv2d -------------------------------------------------------------------------------------
CONV_CASES = [
    # kwargs for Conv2d(4, 6, ...) and input (height, width)
    ({"kernel_size": 3}, (7, 6)),
    ({"kernel_size": 3, "pad_mode": "valid"}, (7, 6)),
    ({"kernel_size": (2, 3), "pad_mode": "pad", "padding": 1}, (5, 6)),
    ({"kernel_size": 3, "pad_mode": "pad", "padding": (0, 1, 2, 1)}, (5, 6)),
    ({"kernel_size": 3, "stride": 2}, (7, 8)),
    ({"kernel_size": 3, "stride": (2, 1), "pad_mode": "valid"}, (7, 8)),
    ({"kernel_size": 2, "dilation": 2}, (6, 7)),
    ({"kernel_size": 3, "group": 2, "has_bias": True}, (5, 5)),
    ({"kernel_size": 1, "group": 2, "has_bias": True, "pad_mode": "valid"}, (3, 4)),
]


@pytest.mark.parametrize("kwargs, hw", CONV_CASES)
def test_conv2d_forward(kwargs, hw):
    kernel = kwargs["kernel_size"]
    kh, kw = (kernel, kernel) if isinstance(kernel, int) else kernel
    group = kwargs.get("group", 1)
    w, b, x = f64(6, 4 // group, kh, kw), f64(6), f64(2, 4, *hw)
    net = nn.Conv2d(4, 6, weight_init=Tensor(w), bias_init=Tensor(b), **kwargs)
    out = net(Tensor(x))

    def pair(v):
        return (v, v) if isinstance(v, int) else v

    want = conv_ref(x, w, b if kwargs.get("has_bias") else None, pair(kwargs.get("stride", 1)),
                    kwargs.get("pad_mode", "same"), kwargs.get("padding", 0),
                    pair(kwargs.get("dilation", 1)), group)
    assert out.shape == want.shape and out.dtype is ember.float64
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-10, atol=1e-12)


def test_conv2d_parameters_and_repr():
    net = nn.Conv2d(4, 6, (3, 2), stride=2, pad_mode="pad", padding=1, group=2, has_bias=True,
                    weight_init="ones")
    assert net.weight.shape == (6, 2, 3, 2) and net.weight.name == "weight"
    assert net.bias.shape == (6,) and net.bias.name == "bias"
    assert (net.weight.asnumpy() == 1).all()
    assert repr(net) == (
        "Conv2d<input_channels=4, output_channels=6, kernel_size=(3, 2), stride=(2, 2), "
        "pad_mode=pad, padding=1, dilation=(1, 1), group=2, has_bias=True, weight_init=ones, "
        "bias_init=zeros, format=NCHW>")
    assert nn.Conv2d(1, 2, 3).bias is None
    assert [p.name for p in nn.Conv2d(1, 2, 3).get_parameters()] == ["weight"]


def test_conv2d_default_same_padding_keeps_the_size():
    net = nn.Conv2d(12, 24, 4, has_bias=False, weight_init="normal")
    assert net(Tensor(np.ones([1, 12, 10, 6]), ember.float32)).shape == (1, 24, 10, 6)


@pytest.mark.parametrize("kwargs", [
    {"kernel_size": 2, "pad_mode": "same", "stride": 2, "has_bias": True},
    {"kernel_size": 2, "pad_mode": "pad", "padding": 1, "dilation": 2, "group": 2},
])
def test_conv2d_gradients(kwargs):
    group = kwargs.get("group", 1)
    net = nn.Conv2d(2, 2, weight_init=t64(2, 2 // group, 2, 2), bias_init=t64(2), **kwargs)
    check_layer_grads(net, t64(1, 2, 4, 3))


# -- pooling ------------------------------------------------------------------------------------
@pytest.mark.parametrize("cls, kind", [(nn.MaxPool2d, "max"), (nn.AvgPool2d, "avg")])
@pytest.mark.parametrize("kernel, stride, pad_mode, hw", [
    (2, 2, "valid", (6, 6)),
    (3, 2, "valid", (7, 6)),
    ((2, 3), (1, 2), "VALID", (5, 7)),
    (3, 2, "same", (7, 6)),
    (2, 3, "SAME", (5, 5)),
    (1, 1, "valid", (3, 4)),
])
def test_pooling_forward(cls, kind, kernel, stride, pad_mode, hw):
    x = f64(2, 3, *hw)
    out = cls(kernel, stride, pad_mode)(Tensor(x))
    want = pool_ref(x, kernel, stride, pad_mode.lower(), kind)
    assert out.shape == want.shape and out.dtype is ember.float64
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-12)


def test_pooling_defaults_and_repr():
    assert repr(nn.MaxPool2d()) == "MaxPool2d<kernel_size=1, stride=1, pad_mode=VALID>"
    assert repr(nn.AvgPool2d(kernel_size=(3, 2), stride=2, pad_mode="same")) == (
        "AvgPool2d<kernel_size=(3, 2), stride=2, pad_mode=SAME>")
    x = t32(1, 2, 3, 3)
    np.testing.assert_array_equal(nn.MaxPool2d()(x).asnumpy(), x.asnumpy())


@pytest.mark.parametrize("cls", [nn.MaxPool2d, nn.AvgPool2d])
def test_pooling_input_gradient(cls):
    x = Tensor(RNG.permutation(40).reshape(1, 2, 5, 4) / 7.0)  # distinct values: no max ties
    sens = f64(1, 2, 3, 2)
    net = cls(kernel_size=2, stride=2, pad_mode="same")
    dx = ops.GradOperation(sens_param=True)(net)(x, Tensor(sens))
    want = numeric(lambda v: net(Tensor(v)).asnumpy(), x.asnumpy(), sens)
    np.testing.assert_allclose(dx.asnumpy(), want, rtol=1e-6, atol=1e-8)


# -- BatchNorm2d --------------------------------------------------------------------------------
def test_batchnorm_parameters_and_repr():
    bn = nn.BatchNorm2d(3)
    assert [(p.name, p.shape, p.requires_grad) for p in bn.get_parameters()] == [
        ("mean", (3,), False), ("variance", (3,), False), ("gamma", (3,), True),
        ("beta", (3,), True)]
    assert [p.name for p in bn.trainable_params()] == ["gamma", "beta"]
    np.testing.assert_array_equal(bn.moving_variance.asnumpy(), [1, 1, 1])
    assert repr(bn) == (
        "BatchNorm2d<num_features=3, eps=1e-05, momentum=0.09999999999999998, "
        "gamma=Parameter (name=gamma, shape=(3,), dtype=Float32, requires_grad=True), "
        "beta=Parameter (name=beta, shape=(3,), dtype=Float32, requires_grad=True), "
        "moving_mean=Parameter (name=mean, shape=(3,), dtype=Float32, requires_grad=False), "
        "moving_variance=Parameter (name=variance, shape=(3,), dtype=Float32, "
        "requires_grad=False)>")
    net = nn.SequentialCell(OrderedDict(bn1=nn.BatchNorm2d(2, affine=False)))
    assert [p.name for p in net.get_parameters()] == [
        "bn1.moving_mean", "bn1.moving_variance", "bn1.gamma", "bn1.beta"]
    assert net.trainable_params() == []


def make_bn(c: int, **kwargs) -> tuple[nn.BatchNorm2d, dict[str, np.ndarray]]:
    init = {"gamma_init": f64(c), "beta_init": f64(c), "moving_mean_init": f64(c),
            "moving_var_init": RNG.uniform(0.5, 2.0, c)}
    bn = nn.BatchNorm2d(c, **{k: Tensor(v) for k, v in init.items()}, **kwargs)
    return bn, init


def test_batchnorm_inference_uses_moving_statistics():
    bn, init = make_bn(3, eps=1e-3)
    x = f64(4, 3, 2, 5)
    out = bn(Tensor(x))
    assert not bn.training
    want = bn_ref(x, init["gamma_init"], init["beta_init"], init["moving_mean_init"],
                  init["moving_var_init"], 1e-3)
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-10)
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), init["moving_mean_init"])


@pytest.mark.parametrize("momentum", [0.9, 0.5, 0.0, 1.0])
def test_batchnorm_training_uses_and_tracks_batch_statistics(momentum):
    bn, init = make_bn(3, momentum=momentum)
    bn.set_train()
    moving_mean, moving_var = init["moving_mean_init"], init["moving_var_init"]
    for _ in range(3):
        x = f64(4, 3, 2, 5) * 2 + 1
        out = bn(Tensor(x))
        mean, var = x.mean(axis=(0, 2, 3)), x.var(axis=(0, 2, 3))
        np.testing.assert_allclose(out.asnumpy(), bn_ref(
            x, init["gamma_init"], init["beta_init"], mean, var, 1e-5), rtol=1e-9, atol=1e-12)
        # MindSpore: moving = momentum * moving + (1 - momentum) * batch, with the unbiased
        # variance (n / (n - 1)) of the batch
        n = x.size // 3
        moving_mean = momentum * moving_mean + (1 - momentum) * mean
        moving_var = momentum * moving_var + (1 - momentum) * var * n / (n - 1)
        np.testing.assert_allclose(bn.moving_mean.asnumpy(), moving_mean, rtol=1e-12)
        np.testing.assert_allclose(bn.moving_variance.asnumpy(), moving_var, rtol=1e-12)
    assert bn.moving_mean.dtype is ember.float64
    bn.set_train(False)
    x = f64(2, 3, 1, 1)
    np.testing.assert_allclose(bn(Tensor(x)).asnumpy(), bn_ref(
        x, init["gamma_init"], init["beta_init"], moving_mean, moving_var, 1e-5), rtol=1e-10)


def test_batchnorm_float32_statistics_keep_their_dtype():
    bn = nn.BatchNorm2d(2).set_train()
    bn(Tensor(f64(3, 2, 2, 2).astype(np.float32)))
    assert bn.moving_mean.dtype is ember.float32 and bn.moving_variance.dtype is ember.float32


@pytest.mark.parametrize("use_batch_statistics, training, uses_batch", [
    (True, False, True), (False, True, False), (None, True, True), (None, False, False)])
def test_batchnorm_use_batch_statistics(use_batch_statistics, training, uses_batch):
    bn, init = make_bn(2, use_batch_statistics=use_batch_statistics)
    bn.set_train(training)
    x = f64(3, 2, 2, 2)
    out = bn(Tensor(x)).asnumpy()
    if uses_batch:
        want = bn_ref(x, init["gamma_init"], init["beta_init"], x.mean(axis=(0, 2, 3)),
                      x.var(axis=(0, 2, 3)), 1e-5)
    else:
        want = bn_ref(x, init["gamma_init"], init["beta_init"], init["moving_mean_init"],
                      init["moving_var_init"], 1e-5)
    np.testing.assert_allclose(out, want, rtol=1e-9, atol=1e-12)
    moved = not np.array_equal(bn.moving_mean.asnumpy(), init["moving_mean_init"])
    assert moved is uses_batch


@pytest.mark.parametrize("training", [True, False])
def test_batchnorm_gradients(training):
    bn, _ = make_bn(2)
    bn.set_train(training)
    check_layer_grads(bn, t64(3, 2, 2, 2), rtol=1e-5, atol=1e-7)


# -- activations, Flatten, Dropout --------------------------------------------------------------
@pytest.mark.parametrize("cell, fn", [
    (nn.ReLU(), lambda v: np.maximum(v, 0)),
    (nn.ReLU6(), lambda v: np.clip(v, 0, 6)),
    (nn.Sigmoid(), lambda v: 1 / (1 + np.exp(-v))),
    (nn.Tanh(), np.tanh),
    (nn.GELU(), gelu_ref),
    (nn.Softmax(), lambda v: softmax_ref(v, -1)),
    (nn.Softmax(axis=0), lambda v: softmax_ref(v, 0)),
    (nn.LogSoftmax(), lambda v: np.log(softmax_ref(v, -1))),
    (nn.LogSoftmax(1), lambda v: np.log(softmax_ref(v, 1))),
])
def test_activation_forward_and_gradient(cell, fn):
    x = f64(3, 4) * 4
    out = cell(Tensor(x))
    assert out.dtype is ember.float64
    np.testing.assert_allclose(out.asnumpy(), fn(x), rtol=1e-10, atol=1e-12)
    assert repr(cell) == f"{type(cell).__name__}<>"
    sens = f64(3, 4)
    dx = ops.GradOperation(sens_param=True)(cell)(Tensor(x), Tensor(sens))
    np.testing.assert_allclose(dx.asnumpy(), numeric(fn, x, sens), rtol=1e-6, atol=1e-8)


def test_get_activation():
    assert isinstance(nn.get_activation("relu6"), nn.ReLU6)
    assert nn.get_activation("relu") is not nn.get_activation("relu")
    assert nn.get_activation(None) is None
    with pytest.raises(ValueError, match="get_activation: unknown activation 'swish'; accepted: "
                                         "softmax, logsoftmax, relu, relu6, tanh, gelu, sigmoid"):
        nn.get_activation("swish")


@pytest.mark.parametrize("shape, want", [((2, 3, 4, 5), (2, 60)), ((3, 4), (3, 4)),
                                         ((5,), (5, 1)), ((2, 0, 3), (2, 0))])
def test_flatten(shape, want):
    x = f64(*shape)
    out = nn.Flatten()(Tensor(x))
    assert out.shape == want
    np.testing.assert_array_equal(out.asnumpy(), x.reshape(want))
    assert repr(nn.Flatten()) == "Flatten<>"


def test_dropout_is_identity_when_not_training():
    drop = nn.Dropout(keep_prob=0.8)
    x = t32(4, 5)
    np.testing.assert_array_equal(drop(x).asnumpy(), x.asnumpy())
    assert repr(drop) == "Dropout<keep_prob=0.8, dtype=Float32>"
    assert drop.set_train() is drop and drop.training
    one = nn.Dropout(keep_prob=1.0).set_train()
    np.testing.assert_array_equal(one(x).asnumpy(), x.asnumpy())


def test_dropout_in_training_drops_and_scales():
    drop = nn.Dropout(keep_prob=0.8).set_train()
    x = Tensor(np.ones((200, 500), np.float32))
    out = drop(x).asnumpy()
    assert out.shape == (200, 500) and out.dtype == np.float32
    assert set(np.unique(out)) == {0.0, np.float32(1 / 0.8)}
    assert np.mean(out != 0) == pytest.approx(0.8, abs=0.01)
    again = drop(x).asnumpy()
    assert not np.array_equal(out, again)  # a new mask on every call
    # the gradient goes through the kept elements, scaled as they are
    grad = ops.GradOperation()(drop)(x)
    assert set(np.unique(grad.asnumpy())) <= {0.0, np.float32(1 / 0.8)}


def test_dropout_masks_follow_set_seed():
    x = Tensor(np.ones((50, 40), np.float32))

    def masks():
        ember.set_seed(3)
        first, second = nn.Dropout(0.5).set_train(), nn.Dropout(0.5).set_train()
        return [first(x).asnumpy(), first(x).asnumpy(), second(x).asnumpy()]

    a, b = masks(), masks()
    for u, v in zip(a, b, strict=True):
        np.testing.assert_array_equal(u, v)
    assert not np.array_equal(a[0], a[2])  # two layers draw different masks


def test_set_train_reaches_every_cell():
    net = nn.SequentialCell([nn.Dense(3, 3), nn.Dropout(), nn.CellList([nn.BatchNorm2d(3)])])
    net.set_train()
    assert all(cell.training for _, cell in net.cells_and_names())
    net.set_train(False)
    assert not any(cell.training for _, cell in net.cells_and_names())


# -- a small network end to end -----------------------------------------------------------------
def test_network_gradients_through_layers():
    ember.set_seed(1)
    net = nn.SequentialCell([
        nn.Conv2d(1, 2, 3, pad_mode="pad", padding=1, has_bias=True,
                  weight_init=t64(2, 1, 3, 3), bias_init=t64(2)),
        nn.BatchNorm2d(2, gamma_init=t64(2), beta_init=t64(2),
                       moving_mean_init=Tensor(np.zeros(2)),
                       moving_var_init=Tensor(np.ones(2))),
        nn.Tanh(),
        nn.AvgPool2d(2, 2),
        nn.Flatten(),
        nn.Dense(8, 3, weight_init=t64(3, 8), bias_init=t64(3), activation="sigmoid"),
    ]).set_train()
    assert [p.name for p in net.trainable_params()] == [
        "0.weight", "0.bias", "1.gamma", "1.beta", "5.weight", "5.bias"]
    check_layer_grads(net, t64(2, 1, 4, 4), rtol=1e-5, atol=1e-7)


# -- containers ---------------------------------------------------------------------------------
class Holder(nn.Cell):
    def __init__(self, container: nn.Cell) -> None:
        super().__init__()
        self.layers = container

    def construct(self, x):
        return self.layers(x)


def names(net: nn.Cell) -> list[str]:
    return [p.name for p in net.get_parameters()]


def test_sequential_cell_runs_in_order():
    w1, b1, w2, x = f64(4, 3), f64(4), f64(2, 4), f64(5, 3)
    seq = nn.SequentialCell([nn.Dense(3, 4, weight_init=Tensor(w1), bias_init=Tensor(b1)),
                             nn.ReLU(), nn.Dense(4, 2, weight_init=Tensor(w2), has_bias=False)])
    np.testing.assert_allclose(seq(Tensor(x)).asnumpy(), np.maximum(x @ w1.T + b1, 0) @ w2.T,
                               rtol=1e-12)
    assert len(seq) == 3 and isinstance(seq[1], nn.ReLU) and isinstance(seq[-1], nn.Dense)
    assert names(Holder(seq)) == ["layers.0.weight", "layers.0.bias", "layers.2.weight"]
    assert nn.SequentialCell(nn.ReLU(), nn.Tanh())[1].cls_name == "Tanh"


def test_sequential_cell_mindspore_example():
    conv = nn.Conv2d(3, 2, 3, pad_mode="valid", weight_init="ones")
    seq = nn.SequentialCell([conv, nn.ReLU()])
    out = seq(Tensor(np.ones([1, 3, 4, 4]), dtype=ember.float32))
    np.testing.assert_array_equal(out.asnumpy(), np.full((1, 2, 2, 2), 27.0))


def test_sequential_cell_ordered_dict_keeps_names():
    seq = nn.SequentialCell(OrderedDict([("conv", nn.Conv2d(1, 2, 3)), ("act", nn.ReLU())]))
    assert list(seq.name_cells()) == ["conv", "act"]
    assert names(Holder(seq)) == ["layers.conv.weight"]
    seq.append(nn.Dense(2, 2))
    assert list(seq.name_cells()) == ["conv", "act", "2"]
    assert names(seq)[-2:] == ["layers.2.weight", "layers.2.bias"]
    del seq[1]
    assert list(seq.name_cells()) == ["conv", "1"]
    assert names(seq) == ["layers.conv.weight", "layers.1.weight", "layers.1.bias"]
    assert repr(nn.SequentialCell([nn.ReLU()])).splitlines() == [
        "SequentialCell<", "  (0): ReLU<>", "  >"]


def test_sequential_cell_append_setitem_and_slices():
    holder = Holder(nn.SequentialCell([nn.Dense(2, 2), nn.ReLU()]))
    holder.layers.append(nn.Dense(2, 3))
    assert names(holder) == ["layers.0.weight", "layers.0.bias", "layers.2.weight",
                             "layers.2.bias"]
    holder.layers[1] = nn.Dense(2, 2)
    assert names(holder)[2:4] == ["layers.1.weight", "layers.1.bias"]
    head = holder.layers[:2]
    assert isinstance(head, nn.SequentialCell) and len(head) == 2
    assert head(t32(4, 2)).shape == (4, 2)
    assert names(holder)[:2] == ["layers.0.weight", "layers.0.bias"]  # a slice renames nothing


def test_cell_list_semantics_and_names():
    conv, bn, relu = nn.Conv2d(100, 20, 3), nn.BatchNorm2d(20), nn.ReLU()
    cells = nn.CellList([bn])
    cells.insert(0, conv)
    cells.append(relu)
    assert list(cells) == [conv, bn, relu] and len(cells) == 3
    assert cells[0] is conv and cells[-1] is relu and cells[1:][0] is bn
    assert repr(cells).splitlines() == [
        "CellList<",
        "  (0): Conv2d<input_channels=100, output_channels=20, kernel_size=(3, 3), "
        "stride=(1, 1), pad_mode=same, padding=0, dilation=(1, 1), group=1, has_bias=False, "
        "weight_init=normal, bias_init=zeros, format=NCHW>",
        "  (1): BatchNorm2d<num_features=20, eps=1e-05, momentum=0.09999999999999998, "
        "gamma=Parameter (name=1.gamma, shape=(20,), dtype=Float32, requires_grad=True), "
        "beta=Parameter (name=1.beta, shape=(20,), dtype=Float32, requires_grad=True), "
        "moving_mean=Parameter (name=1.moving_mean, shape=(20,), dtype=Float32, "
        "requires_grad=False), moving_variance=Parameter (name=1.moving_variance, "
        "shape=(20,), dtype=Float32, requires_grad=False)>",
        "  (2): ReLU<>",
        "  >",
    ]
    cells.extend([relu, relu])
    assert len(cells) == 5 and cells[3] is relu


def test_cell_list_names_follow_the_holder():
    holder = Holder(nn.CellList([nn.Dense(2, 2), nn.Dense(2, 2)]))
    assert names(holder) == ["layers.0.weight", "layers.0.bias", "layers.1.weight",
                             "layers.1.bias"]
    holder.layers.insert(0, nn.Dense(2, 3))
    assert names(holder) == [f"layers.{i}.{k}" for i in range(3) for k in ("weight", "bias")]
    assert holder.layers[0].weight.shape == (3, 2)
    holder.layers += [nn.Dense(3, 1)]
    del holder.layers[0]
    assert names(holder) == [f"layers.{i}.{k}" for i in range(3) for k in ("weight", "bias")]
    assert holder.layers[2].weight.shape == (1, 3)
    assert [name for name, _ in holder.cells_and_names()] == [
        "", "layers", "layers.0", "layers.1", "layers.2"]
    unprefixed = nn.CellList([nn.Dense(2, 2)], auto_prefix=False)
    assert names(unprefixed) == ["weight", "bias"]


def test_cell_list_has_no_construct():
    with pytest.raises(AttributeError, match="CellList defines no construct"):
        nn.CellList([nn.ReLU()])(t32(2))


@pytest.mark.parametrize("action, error, message", [
    (lambda c: c[2], IndexError, r"CellList: index 2 is out of range \[-2, 2\)"),
    (lambda c: c[-3], IndexError, r"CellList: index -3 is out of range \[-2, 2\)"),
    (lambda c: c["0"], TypeError, "CellList: index must be an int or a slice, but got str"),
    (lambda c: c.append(ember.ops.ReLU()), TypeError, "CellList: items must be Cells, but got "
                                                      "ReLU"),
    (lambda c: c.extend(nn.ReLU()), TypeError, "CellList: extend takes a list of Cells, but "
                                               "got ReLU"),
    (lambda c: c.extend([nn.ReLU(), 3]), TypeError, "CellList: items must be Cells, but got int"),
    (lambda c: c.insert(5, nn.ReLU()), IndexError, "CellList: index 5 is out of range"),
    (lambda c: nn.CellList([nn.ReLU()], [nn.ReLU()]), TypeError, "CellList: takes one list of "
                                                                 "Cells"),
    (lambda c: nn.SequentialCell([nn.ReLU(), "relu"]), TypeError,
     "SequentialCell: items must be Cells, but got str"),
    (lambda c: nn.SequentialCell({"a": nn.ReLU()}), TypeError,
     "SequentialCell: takes a list of Cells, an OrderedDict of Cells or Cells, but got dict"),
    (lambda c: nn.SequentialCell(OrderedDict([("a.b", nn.ReLU())])), KeyError,
     "SequentialCell: names must be non-empty strs without '.'"),
])
def test_container_errors(action, error, message):
    with pytest.raises(error, match=message):
        action(nn.CellList([nn.ReLU(), nn.Tanh()]))


# -- argument errors ----------------------------------------------------------------------------
@pytest.mark.parametrize("make, error, message", [
    (lambda: nn.Dense(0, 4), ValueError, "Dense: 'in_channels' must be an int >= 1, but got 0"),
    (lambda: nn.Dense(3, 2.0), TypeError, "Dense: 'out_channels' must be an int, but got 2.0"),
    (lambda: nn.Dense(3, 4, has_bias=1), TypeError, "Dense: 'has_bias' must be a bool"),
    (lambda: nn.Dense(3, 4, activation=3), TypeError,
     "Dense: 'activation' must be a str, a Cell or a Primitive, but got int"),
    (lambda: nn.Dense(3, 4, activation="swish"), ValueError,
     "Dense: unknown activation 'swish'; accepted: softmax, "),
    (lambda: nn.Dense(3, 4, weight_init=Tensor(np.zeros((3, 4), np.float32))), ValueError,
     r"Dense: 'weight_init': initializer: the shape of init \[3, 4\] differs from the "
     r"requested shape \[4, 3\]"),
    (lambda: nn.Dense(3, 4, bias_init="gaussian"), ValueError,
     "Dense: 'bias_init': initializer: unknown initializer name 'gaussian'"),
    (lambda: nn.Conv2d(3, 4, 0), ValueError,
     r"Conv2d: 'kernel_size' must be a positive int or a tuple of two positive ints, but got 0"),
    (lambda: nn.Conv2d(3, 4, (3, 3, 3)), ValueError, "Conv2d: 'kernel_size' must be a positive"),
    (lambda: nn.Conv2d(3, 4, [3, 3]), TypeError,
     r"Conv2d: 'kernel_size' must be an int or a tuple of two ints, but got \[3, 3\]"),
    (lambda: nn.Conv2d(3, 4, 3, stride=(1, 0)), ValueError, "Conv2d: 'stride' must be a "),
    (lambda: nn.Conv2d(3, 4, 3, dilation=-1), ValueError, "Conv2d: 'dilation' must be a "),
    (lambda: nn.Conv2d(3, 4, 3, pad_mode="full"), ValueError,
     r"Conv2d: 'pad_mode' must be one of \['same', 'valid', 'pad'\], but got 'full'"),
    (lambda: nn.Conv2d(3, 4, 3, pad_mode=None), TypeError, "Conv2d: 'pad_mode' must be a str"),
    (lambda: nn.Conv2d(3, 4, 3, pad_mode="pad", padding=-1), ValueError,
     "Conv2d: 'padding' must be a non-negative int or a tuple of four non-negative ints"),
    (lambda: nn.Conv2d(3, 4, 3, pad_mode="pad", padding=(1, 1)), ValueError,
     "Conv2d: 'padding' must be a non-negative int or a tuple of four"),
    (lambda: nn.Conv2d(3, 4, 3, padding=1), ValueError,
     "Conv2d: 'padding' must be 0 unless pad_mode is 'pad', but got padding=1 with "
     "pad_mode='same'"),
    (lambda: nn.Conv2d(3, 4, 3, group=2), ValueError,
     r"Conv2d: 'in_channels' \(3\) must be divisible by 'group' \(2\)"),
    (lambda: nn.Conv2d(4, 3, 3, group=2), ValueError,
     r"Conv2d: 'out_channels' \(3\) must be divisible by 'group' \(2\)"),
    (lambda: nn.Conv2d(3, 4, 3, group=0), ValueError, "Conv2d: 'group' must be an int >= 1"),
    (lambda: nn.Conv2d(3, 4, 3, has_bias="yes"), TypeError, "Conv2d: 'has_bias' must be a bool"),
    (lambda: nn.Conv2d(3, 4, 3, data_format="CHWN"), ValueError,
     r"Conv2d: 'data_format' must be one of \['NCHW', 'NHWC'\], but got 'CHWN'"),
    (lambda: nn.Conv2d(3, 4, 3, weight_init=np.zeros((4, 3, 2, 2))), ValueError,
     r"Conv2d: 'weight_init': initializer: the shape of init \[4, 3, 2, 2\] differs"),
    (lambda: nn.MaxPool2d(kernel_size=0), ValueError,
     "MaxPool2d: 'kernel_size' must be a positive int or a tuple of two positive ints"),
    (lambda: nn.AvgPool2d(stride=(2, 2, 2)), ValueError, "AvgPool2d: 'stride' must be a "),
    (lambda: nn.AvgPool2d(stride=2.0), TypeError, "AvgPool2d: 'stride' must be an int or a "),
    (lambda: nn.MaxPool2d(pad_mode="pad"), ValueError,
     r"MaxPool2d: 'pad_mode' must be one of \['VALID', 'SAME'\], but got 'PAD'"),
    (lambda: nn.MaxPool2d(pad_mode=1), TypeError, "MaxPool2d: 'pad_mode' must be a str"),
    (lambda: nn.BatchNorm2d(0), ValueError, "BatchNorm2d: 'num_features' must be an int >= 1"),
    (lambda: nn.BatchNorm2d(3, momentum=1.5), ValueError,
     r"BatchNorm2d: 'momentum' must be in \[0.0, 1.0\], but got 1.5"),
    (lambda: nn.BatchNorm2d(3, eps=0.0), ValueError,
     r"BatchNorm2d: 'eps' must be in \(0.0, 1.0\], but got 0.0"),
    (lambda: nn.BatchNorm2d(3, eps="small"), TypeError, "BatchNorm2d: 'eps' must be a number"),
    (lambda: nn.BatchNorm2d(3, affine=None), TypeError, "BatchNorm2d: 'affine' must be a bool"),
    (lambda: nn.BatchNorm2d(3, use_batch_statistics=1), TypeError,
     "BatchNorm2d: 'use_batch_statistics' must be a bool or None, but got 1"),
    (lambda: nn.BatchNorm2d(3, gamma_init=np.ones(4)), ValueError,
     r"BatchNorm2d: 'gamma_init': initializer: the shape of init \[4\] differs"),
    (lambda: nn.Dropout(keep_prob=0.0), ValueError,
     r"Dropout: 'keep_prob' must be in \(0.0, 1.0\], but got 0.0"),
    (lambda: nn.Dropout(keep_prob=1.5), ValueError, "Dropout: 'keep_prob' must be in"),
    (lambda: nn.Dropout(keep_prob=1), TypeError, "Dropout: 'keep_prob' must be a float, but "
                                                 "got 1"),
    (lambda: nn.Dropout(dtype=ember.bool_), TypeError,
     "Dropout: 'dtype' must be a number dtype such as ember.float32, but got Bool"),
])
def test_bad_layer_arguments(make, error, message):
    with pytest.raises(error, match=message):
        make()


@pytest.mark.parametrize("layer, x, error, message", [
    (nn.Dense(3, 4), t32(3), ValueError,
     r"Dense: the input must have 2 or more dimensions, but got shape \[3\]"),
    (nn.Dense(3, 4), np.ones((2, 3)), TypeError, "Dense: the input must be a Tensor, but got "
                                                 "ndarray"),
    (nn.Dense(3, 4), t32(2, 5), ValueError, "MatMul"),
    (nn.BatchNorm2d(3), t32(2, 3), ValueError,
     r"BatchNorm2d: the input must have 4 dimensions, but got shape \[2, 3\]"),
    (nn.BatchNorm2d(3), t32(2, 4, 2, 2), ValueError, "BatchNorm"),
    (nn.Flatten(), Tensor(np.float32(1.0)), ValueError,
     r"Flatten: the input must have 1 or more dimensions, but got shape \[\]"),
    (nn.Conv2d(3, 4, 3), t32(1, 2, 5, 5), ValueError, "Conv2D"),
    (nn.MaxPool2d(3), t32(1, 2, 2, 2), ValueError, "MaxPool"),
])
def test_bad_layer_inputs(layer, x, error, message):
    ember.context.set_context(mode=ember.context.PYNATIVE_MODE)  # the layer's own checks
    with pytest.raises(error, match=message):
        layer(x)
