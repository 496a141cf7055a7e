"""CTCLoss of MindSpore's ``nn_ops``: connectionist temporal classification, as TensorFlow's
``ctc_loss`` computes it (the blank is the last class).

The forward-backward recursion is written once, in ``CTCLoss.loss_and_gradient``, with an
array namespace ``xp`` (NumPy on the CPU backend, ``tf.experimental.numpy`` on the GPU
backend), in log space over float64 arrays of static shapes: the labels (a sparse tensor) are
laid out densely with one-hot sums, and the loop runs over the time steps.
"""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.ops import functional as F
from ember.ops._rules import check_tensor
from ember.ops.operations.nn_ops import _check_bool
from ember.ops.primitive import Primitive, Spec

__all__ = ["CTCLoss"]

_NEG = -1e30  # log of zero, finite so that sums of logs stay free of inf - inf


class CTCLoss(Primitive):
    """CTC loss of ``inputs`` (max_time, batch, num_classes), logits whose softmax over the
    classes gives each frame's probabilities, against the label sequences of the sparse
    tensor (``labels_indices`` (n, 2) int64 of (batch, position), ``labels_values`` (n,)
    int32), each batch entry ``sequence_length`` frames long: ``CTCLoss(
    preprocess_collapse_repeated=False, ctc_merge_repeated=True,
    ignore_longer_outputs_than_inputs=False)(inputs, labels_indices, labels_values,
    sequence_length)`` -> (loss (batch,), gradient of the loss with respect to inputs).

    A label sequence too long for its frames gets an infinite loss and a zero gradient (with
    ``ignore_longer_outputs_than_inputs``, a zero loss)."""

    def __init__(self, preprocess_collapse_repeated: bool = False,
                 ctc_merge_repeated: bool = True,
                 ignore_longer_outputs_than_inputs: bool = False) -> None:
        super().__init__()
        op = self.name
        self.preprocess_collapse_repeated = _check_bool(
            op, "preprocess_collapse_repeated", preprocess_collapse_repeated)
        if preprocess_collapse_repeated:
            raise ValueError("CTCLoss: 'preprocess_collapse_repeated' is not supported by "
                             "ember (labels are used as given); accepted: False")
        self.ctc_merge_repeated = _check_bool(op, "ctc_merge_repeated", ctc_merge_repeated)
        self.ignore_longer_outputs_than_inputs = _check_bool(
            op, "ignore_longer_outputs_than_inputs", ignore_longer_outputs_than_inputs)

    def infer(self, inputs: Any, indices: Any, values: Any, lengths: Any) -> list[Spec]:
        op = self.name
        check_tensor(op, "inputs", inputs, mstype.float_type)
        check_tensor(op, "labels_indices", indices, (mstype.int64,))
        check_tensor(op, "labels_values", values, (mstype.int32,))
        check_tensor(op, "sequence_length", lengths, (mstype.int32,))
        if inputs.ndim != 3 or indices.ndim != 2 or indices.shape[1] != 2:
            raise ValueError(f"CTCLoss: 'inputs' must be 3-D (max_time, batch, num_classes) and "
                             f"'labels_indices' of shape [n, 2], but got {list(inputs.shape)} "
                             f"and {list(indices.shape)}")
        if values.shape != indices.shape[:1] or lengths.shape != inputs.shape[1:2]:
            raise ValueError(f"CTCLoss: 'labels_values' must have shape [{indices.shape[0]}] "
                             f"and 'sequence_length' shape [{inputs.shape[1]}], but got "
                             f"{list(values.shape)} and {list(lengths.shape)}")
        return [(inputs.shape[1:2], inputs.dtype), (inputs.shape, inputs.dtype)]

    def bprop(self, inputs: Tensor, indices: Tensor, values: Tensor, lengths: Tensor,
              out: tuple, dout: tuple) -> tuple:
        dloss = F.reshape(dout[0], (1, inputs.shape[1], 1))
        return F.mul(out[1], dloss), None, None, None

    def loss_and_gradient(self, xp: Any, x: Any, indices: Any, values: Any,
                          lengths: Any) -> tuple:
        """(loss, gradient) in float64, every input given as a float64 array."""
        steps, batch, classes = x.shape
        n = indices.shape[0]
        states = 2 * n + 1
        blank = classes - 1.0
        shifted = x - xp.max(x, axis=2, keepdims=True)
        logp = shifted - xp.log(xp.sum(xp.exp(shifted), axis=2, keepdims=True))
        # the labels, dense: (batch, n), and each sequence's length
        mine = indices[None, :, 0] == xp.arange(float(batch))[:, None]  # (batch, n)
        at = indices[None, :, 1] == xp.arange(float(n))[:, None]  # (position, n)
        dense = xp.sum(xp.where(mine[:, None, :] & at[None, :, :], values, 0.0), axis=2)
        count = xp.sum(xp.where(mine, 1.0, 0.0), axis=1)
        # the extended sequences: blank, l1, blank, l2, ..., blank
        blanks = xp.full((batch, n), blank)
        ext = xp.concatenate([xp.reshape(xp.stack([blanks, dense], axis=2), (batch, 2 * n)),
                              xp.full((batch, 1), blank)], axis=1)
        s = xp.arange(float(states))[None, :]
        valid = s < 2 * count[:, None] + 1
        hot = ext[:, :, None] == xp.arange(float(classes))[None, None, :]  # (batch, S, C)
        emit = [xp.sum(xp.where(hot, logp[t][:, None, :], 0.0), axis=2) for t in range(steps)]
        is_label = ext != blank
        # a label may follow the one before it straight away if they differ, or if repeats
        # are not merged; a label state repeats only where repeats are merged
        skip = xp.concatenate([xp.full((batch, 2), False), is_label[:, 2:] & xp.logical_or(
            ext[:, 2:] != ext[:, :-2], not self.ctc_merge_repeated)], axis=1)
        skip_next = xp.concatenate([skip[:, 2:], xp.full((batch, 2), False)], axis=1)
        stay = xp.logical_or(xp.logical_not(is_label), self.ctc_merge_repeated)
        seq = lengths[:, None]

        def right(a: Any, k: int) -> Any:  # a[:, s - k], _NEG where s < k
            return xp.concatenate([xp.full((batch, k), _NEG), a[:, :states - k]], axis=1)

        def left(a: Any, k: int) -> Any:  # a[:, s + k], _NEG past the end
            return xp.concatenate([a[:, k:], xp.full((batch, k), _NEG)], axis=1)

        alphas = [xp.where(valid & (s < 2), emit[0], _NEG)]
        for t in range(1, steps):
            prev = alphas[-1]
            step = xp.logaddexp(xp.logaddexp(xp.where(stay, prev, _NEG), right(prev, 1)),
                                xp.where(skip, right(prev, 2), _NEG))
            new = xp.where(valid, step + emit[t], _NEG)
            alphas.append(xp.where(t < seq, new, prev))
        ends = valid & (s >= 2 * count[:, None] - 1)
        final = xp.where(ends, alphas[-1], _NEG)
        top = xp.max(final, axis=1, keepdims=True)
        log_p = (top + xp.log(xp.sum(xp.exp(final - top), axis=1, keepdims=True)))[:, 0]
        betas = [None] * steps
        after = None  # emission at t + 1 plus beta at t + 1
        for t in range(steps - 1, -1, -1):
            if after is None:
                rec = xp.full((batch, states), _NEG)
            else:
                rec = xp.logaddexp(xp.logaddexp(xp.where(stay, after, _NEG), left(after, 1)),
                                   xp.where(skip_next, left(after, 2), _NEG))
            beta = xp.where(t == seq - 1, xp.where(ends, 0.0, _NEG),
                            xp.where(t < seq - 1, xp.where(valid, rec, _NEG), _NEG))
            betas[t] = beta
            after = emit[t] + beta
        feasible = log_p > _NEG / 2
        occupancy = xp.stack([xp.exp(xp.minimum(a + b - log_p[:, None], 0.0))
                              for a, b in zip(alphas, betas)])  # (T, batch, S)
        frames = (xp.arange(float(steps))[:, None] < lengths[None, :])[:, :, None]
        posterior = xp.einsum("tbs,bsc->tbc", occupancy, xp.where(hot, 1.0, 0.0))
        grad = xp.where(frames & feasible[None, :, None], xp.exp(logp) - posterior, 0.0)
        lost = 0.0 if self.ignore_longer_outputs_than_inputs else float("inf")
        return xp.where(feasible, -log_p, lost), grad
