"""A hand-written NumPy LeNet-5 training step: the reference the LeNet benchmarks compare with.

The same computation as ember's LeNet-5 (conv 5x5 1->6, ReLU, 2x2 max pool, conv 5x5 6->16,
ReLU, 2x2 max pool, dense 400->120->84->10 with ReLU, softmax cross-entropy averaged over the
batch, Momentum), written as one would by hand: convolutions as im2col and one BLAS matrix
product each way, pooling as running maxima over strided views, no gradient for the input
images.
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def conv_forward(x: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Valid, stride-1 cross-correlation, NCHW x OIHW -> NCHW, by im2col and one batched GEMM;
    also the im2col matrices (N, C*k*k, OH*OW) for the backward pass."""
    n, c, h, wd = x.shape
    o, _, k, _ = w.shape
    oh, ow = h - k + 1, wd - k + 1
    windows = sliding_window_view(x, (k, k), axis=(2, 3))  # N, C, OH, OW, k, k
    cols = windows.transpose(0, 1, 4, 5, 2, 3).reshape(n, c * k * k, oh * ow)
    out = w.reshape(o, -1) @ cols  # N, O, OH*OW: already NCHW
    return out.reshape(n, o, oh, ow), cols


def conv_backward(dout: np.ndarray, cols: np.ndarray, w: np.ndarray, x_shape: tuple,
                  need_dx: bool) -> tuple[np.ndarray | None, np.ndarray]:
    """Weight gradient by one batched GEMM; input gradient by one GEMM and col2im."""
    n, o, oh, ow = dout.shape
    k = w.shape[2]
    dmat = dout.reshape(n, o, oh * ow)
    dw = (dmat @ cols.transpose(0, 2, 1)).sum(axis=0).reshape(w.shape)
    if not need_dx:
        return None, dw
    dcols = (w.reshape(o, -1).T @ dmat).reshape(n, -1, k, k, oh, ow)
    dx = np.zeros(x_shape, dout.dtype)
    for i in range(k):
        for j in range(k):
            dx[:, :, i:i + oh, j:j + ow] += dcols[:, :, i, j]
    return dx, dw


_TAPS = ((0, 0), (0, 1), (1, 0), (1, 1))  # the four positions of a 2x2 window


def pool_forward(x: np.ndarray) -> np.ndarray:
    """2x2, stride-2 max pool: a running maximum over four strided views (no copies)."""
    out = x[:, :, 0::2, 0::2].copy()
    for i, j in _TAPS[1:]:
        np.maximum(out, x[:, :, i::2, j::2], out=out)
    return out


def pool_backward(dout: np.ndarray, x: np.ndarray, out: np.ndarray) -> np.ndarray:
    """The gradient goes to the first maximum of each window."""
    dx = np.zeros_like(x)
    taken = np.zeros(out.shape, bool)
    for i, j in _TAPS:
        hit = (x[:, :, i::2, j::2] == out) & ~taken
        dx[:, :, i::2, j::2] = dout * hit
        taken |= hit
    return dx


class NumpyLeNet:
    """Parameters in ember's names and layouts, and one Momentum training step."""

    def __init__(self, params: dict[str, np.ndarray], lr: float = 0.01,
                 momentum: float = 0.9) -> None:
        self.params = {k: v.astype(np.float32).copy() for k, v in params.items()}
        self.moments = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.lr, self.momentum = np.float32(lr), np.float32(momentum)

    def loss_and_grads(self, x: np.ndarray, labels: np.ndarray
                       ) -> tuple[float, dict[str, np.ndarray]]:
        p = self.params
        c1, cols1 = conv_forward(x, p["conv1.weight"])
        r1 = np.maximum(c1, 0)
        p1 = pool_forward(r1)
        c2, cols2 = conv_forward(p1, p["conv2.weight"])
        r2 = np.maximum(c2, 0)
        p2 = pool_forward(r2)
        f = p2.reshape(len(x), -1)
        h1 = f @ p["fc1.weight"].T + p["fc1.bias"]
        a1 = np.maximum(h1, 0)
        h2 = a1 @ p["fc2.weight"].T + p["fc2.bias"]
        a2 = np.maximum(h2, 0)
        logits = a2 @ p["fc3.weight"].T + p["fc3.bias"]
        shifted = logits - logits.max(axis=1, keepdims=True)
        exp = np.exp(shifted)
        total = exp.sum(axis=1, keepdims=True)
        probs = exp / total
        n = len(x)
        loss = (np.log(total[:, 0]) - shifted[np.arange(n), labels]).mean()

        g: dict[str, np.ndarray] = {}
        dlogits = probs
        dlogits[np.arange(n), labels] -= 1
        dlogits /= n
        g["fc3.weight"], g["fc3.bias"] = dlogits.T @ a2, dlogits.sum(0)
        dh2 = (dlogits @ p["fc3.weight"]) * (h2 > 0)
        g["fc2.weight"], g["fc2.bias"] = dh2.T @ a1, dh2.sum(0)
        dh1 = (dh2 @ p["fc2.weight"]) * (h1 > 0)
        g["fc1.weight"], g["fc1.bias"] = dh1.T @ f, dh1.sum(0)
        dp2 = (dh1 @ p["fc1.weight"]).reshape(p2.shape)
        dc2 = pool_backward(dp2, r2, p2) * (c2 > 0)
        dp1, g["conv2.weight"] = conv_backward(dc2, cols2, p["conv2.weight"], p1.shape,
                                               need_dx=True)
        dc1 = pool_backward(dp1, r1, p1) * (c1 > 0)
        _, g["conv1.weight"] = conv_backward(dc1, cols1, p["conv1.weight"], x.shape,
                                             need_dx=False)
        return float(loss), g

    def step(self, x: np.ndarray, labels: np.ndarray) -> float:
        loss, grads = self.loss_and_grads(x, labels)
        for name, grad in grads.items():
            moment = self.moments[name]
            moment *= self.momentum
            moment += grad
            self.params[name] -= self.lr * moment
        return loss
