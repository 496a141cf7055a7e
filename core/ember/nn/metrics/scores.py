"""Score metrics: ``Fbeta``, ``F1``, ``Dice``, ``Perplexity``, ``CosineSimilarity``."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ember.nn.metrics.metric import EvaluationBase, Metric, rearrange_inputs


class Fbeta(EvaluationBase):
    """Per-class F-beta ``(1 + beta²) * tp / (beta² * actual + predicted)`` of scores
    ``y_pred`` (N, C) against class indices or one-hot ``y``."""

    def __init__(self, beta: float) -> None:
        super().__init__("classification")
        if isinstance(beta, bool) or not isinstance(beta, int | float) or not beta > 0:
            raise ValueError(f"Fbeta: beta must be a positive number, but got {beta!r}")
        self.beta = beta
        self.eps = sys.float_info.min
        self.clear()

    def clear(self) -> None:
        self._class_num = 0
        self._true_positives: Any = 0
        self._actual_positives: Any = 0
        self._positives: Any = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(y_pred, y)``."""
        y_pred, y = self._prepare(inputs)
        one_hot = np.eye(self._class_num)
        truth = one_hot[y.reshape(-1)]
        predicted = one_hot[y_pred.argmax(axis=1).reshape(-1)]
        self._true_positives = self._true_positives + (truth * predicted).sum(axis=0)
        self._actual_positives = self._actual_positives + truth.sum(axis=0)
        self._positives = self._positives + predicted.sum(axis=0)

    def eval(self, average: bool = False) -> np.ndarray | np.float64:
        """One value per class; their mean if ``average``."""
        if self._class_num == 0:
            raise self._no_samples()
        beta2 = self.beta ** 2
        fbeta = (1.0 + beta2) * self._true_positives / (
            beta2 * self._actual_positives + self._positives + self.eps)
        return fbeta.mean() if average else fbeta


class F1(Fbeta):
    """F-beta with beta 1: the harmonic mean of precision and recall."""

    def __init__(self) -> None:
        super().__init__(1.0)


class Dice(Metric):
    """``2 |X ∩ Y| / (|X|² + |Y|² + smooth)`` of each update, summed and divided by the number
    of samples (first dimensions) seen, as MindSpore computes it."""

    def __init__(self, smooth: float = 1e-5) -> None:
        super().__init__()
        if isinstance(smooth, bool) or not isinstance(smooth, int | float) or smooth <= 0:
            raise ValueError(f"Dice: smooth must be a positive number, but got {smooth!r}")
        self.smooth = smooth
        self.clear()

    def clear(self) -> None:
        self._dice_coeff_sum = 0.0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(y_pred, y)`` of the same shape."""
        if len(inputs) != 2:
            raise ValueError(f"Dice.update: needs 2 inputs (y_pred, y), but got {len(inputs)}")
        y_pred, y = (self._convert_data(x).astype(np.float64) for x in inputs)
        if y_pred.shape != y.shape:
            raise ValueError(f"Dice.update: y_pred {y_pred.shape} and y {y.shape} must have the "
                             "same shape")
        intersection = (y_pred * y).sum()
        union = (y_pred * y_pred).sum() + (y * y).sum()
        self._dice_coeff_sum += 2 * intersection / (union + self.smooth)
        self._samples_num += y.shape[0] if y.ndim else 1

    def eval(self) -> float:
        if self._samples_num == 0:
            raise self._no_samples()
        return self._dice_coeff_sum / self._samples_num


class Perplexity(Metric):
    """``exp(mean(-log p(label)))`` of probabilities ``preds`` (N, C) for class ``labels``;
    labels equal to ``ignore_label`` are skipped."""

    def __init__(self, ignore_label: int | None = None) -> None:
        super().__init__()
        if ignore_label is not None and not isinstance(ignore_label, int):
            raise TypeError(f"Perplexity: ignore_label must be an int or None, but got "
                            f"{ignore_label!r}")
        self.ignore_label = ignore_label
        self.clear()

    def clear(self) -> None:
        self._sum_metric = 0.0
        self._num_inst = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(preds, labels)``."""
        if len(inputs) != 2:
            raise ValueError(f"Perplexity.update: needs 2 inputs (preds, labels), but got "
                             f"{len(inputs)}")
        preds = self._convert_data(inputs[0])
        preds = preds.reshape(-1, preds.shape[-1])
        labels = self._convert_data(inputs[1]).reshape(-1).astype(np.int64)
        if len(labels) != len(preds):
            raise ValueError(f"Perplexity.update: {len(labels)} labels for {len(preds)} "
                             "predictions")
        keep = labels != self.ignore_label if self.ignore_label is not None else (
            np.ones(len(labels), bool))
        probs = preds[np.arange(len(labels)), np.where(keep, labels, 0)][keep]
        self._sum_metric -= float(np.log(np.maximum(probs, 1e-10)).sum())
        self._num_inst += int(keep.sum())

    def eval(self) -> float:
        if self._num_inst == 0:
            raise self._no_samples()
        return float(np.exp(self._sum_metric / self._num_inst))


class CosineSimilarity(Metric):
    """The similarity matrix of the rows of the inputs ('cosine' or 'dot'), its diagonal zeroed
    with ``zero_diagonal``, reduced over the last axis by ``reduction`` ('none', 'sum',
    'mean')."""

    def __init__(self, similarity: str = "cosine", reduction: str = "none",
                 zero_diagonal: bool = True) -> None:
        super().__init__()
        if similarity not in ("cosine", "dot"):
            raise ValueError(f"CosineSimilarity: similarity must be 'cosine' or 'dot', but got "
                             f"{similarity!r}")
        if reduction not in ("none", "sum", "mean"):
            raise ValueError(f"CosineSimilarity: reduction must be 'none', 'sum' or 'mean', but "
                             f"got {reduction!r}")
        self.similarity, self.reduction, self.zero_diagonal = similarity, reduction, zero_diagonal
        self.clear()

    def clear(self) -> None:
        self.sqr_mtx_res: np.ndarray | None = None

    def update(self, inputs: Any) -> None:
        """Take the rows (N, F) whose similarities are computed."""
        rows = self._convert_data(inputs).astype(np.float64)
        if self.similarity == "cosine":
            rows = rows / np.linalg.norm(rows, axis=1, keepdims=True)
        self.sqr_mtx_res = rows @ rows.T

    def eval(self) -> np.ndarray:
        if self.sqr_mtx_res is None:
            raise self._no_samples()
        result = self.sqr_mtx_res.copy()
        if self.zero_diagonal:
            np.fill_diagonal(result, 0)
        if self.reduction == "mean":
            return result.mean(axis=-1)
        return result.sum(axis=-1) if self.reduction == "sum" else result
