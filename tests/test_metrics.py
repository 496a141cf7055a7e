"""ember.nn.metrics against MindSpore's documented outputs and independent NumPy formulas."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember import Tensor
from ember.nn import metrics

LOGITS = [[0.2, 0.5], [0.3, 0.1], [0.9, 0.6]]
SCORES5 = [[0.2, 0.5, 0.3, 0.6, 0.2], [0.1, 0.35, 0.5, 0.2, 0.0], [0.9, 0.6, 0.2, 0.01, 0.3]]


# -- the examples in MindSpore's documentation ------------------------------------------------
def test_accuracy_doc_example():
    metric = metrics.Accuracy("classification")
    metric.clear()
    metric.update(Tensor(np.array(LOGITS), ember.float32),
                  Tensor(np.array([1, 0, 1]), ember.float32))
    assert str(metric.eval()) == "0.6666666666666666"


def test_set_indexes_doc_example():
    metric = metrics.Accuracy("classification").set_indexes([0, 2])
    metric.update(Tensor(np.array(LOGITS)), Tensor(np.array([1, 0, 1])),
                  Tensor(np.array([0, 0, 1])))
    assert str(metric.eval()) == "0.3333333333333333"


@pytest.mark.parametrize("cls, printed", [(metrics.Precision, "[0.5 1. ]"),
                                          (metrics.Recall, "[1.  0.5]")])
def test_precision_and_recall_doc_examples(cls, printed):
    metric = cls("classification")
    metric.update(Tensor(np.array(LOGITS)), Tensor(np.array([1, 0, 1])))
    assert str(metric.eval()) == printed


@pytest.mark.parametrize("metric, printed", [
    (metrics.TopKCategoricalAccuracy(3), "0.6666666666666666"),
    (metrics.Top1CategoricalAccuracy(), "0.0"),
    (metrics.Top5CategoricalAccuracy(), "1.0"),
])
def test_topk_doc_examples(metric, printed):
    metric.update(Tensor(np.array(SCORES5), ember.float32),
                  Tensor(np.array([2, 0, 1]), ember.float32))
    assert str(metric.eval()) == printed


def test_loss_doc_example():
    metric = metrics.Loss()
    metric.update(Tensor(np.array(0.2), ember.float32))
    assert str(metric.eval()) == "0.20000000298023224"


# -- independent formulas -------------------------------------------------------------------
def _batches(seed, classes=4, count=3, n=7):
    rng = np.random.default_rng(seed)
    return [(rng.random((n, classes)), rng.integers(0, classes, n)) for _ in range(count)]


def _one_hot(labels, classes):
    return np.eye(classes)[labels]


@pytest.mark.parametrize("wrap", [Tensor, np.asarray, lambda a: a.tolist()])
def test_accuracy_over_several_updates(wrap):
    batches = _batches(0)
    metric = metrics.Accuracy()
    for scores, labels in batches:
        metric.update(wrap(scores), wrap(labels))
    expected = np.mean(np.concatenate([s.argmax(1) == y for s, y in batches]))
    assert metric.eval() == pytest.approx(expected)
    one_hot = metrics.Accuracy()
    for scores, labels in batches:
        one_hot.update(scores, _one_hot(labels, 4))
    assert one_hot.eval() == metric.eval()


def test_accuracy_with_extra_axes_and_multilabel():
    rng = np.random.default_rng(1)
    scores, labels = rng.random((5, 3, 4)), rng.integers(0, 3, (5, 4))
    assert metrics.Accuracy()(scores, labels) == pytest.approx(
        np.mean(scores.argmax(1) == labels))
    pred, truth = rng.integers(0, 2, (50, 3)), rng.integers(0, 2, (50, 3))
    assert metrics.Accuracy("multilabel")(pred, truth) == pytest.approx(
        np.mean([(p == t).all() for p, t in zip(pred, truth)]))


def _confusion(batches, classes):
    matrix = np.zeros((classes, classes))  # [true, predicted]
    for scores, labels in batches:
        np.add.at(matrix, (labels, scores.argmax(1)), 1)
    return matrix


def test_precision_and_recall_per_class_from_a_confusion_matrix():
    batches = _batches(2, classes=5, count=4, n=9)
    matrix = _confusion(batches, 5)
    true_positives = np.diag(matrix)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.nan_to_num(true_positives / matrix.sum(axis=0))
        recall = np.nan_to_num(true_positives / matrix.sum(axis=1))
    for cls, expected in ((metrics.Precision, precision), (metrics.Recall, recall)):
        metric = cls()
        for scores, labels in batches:
            metric.update(Tensor(scores), Tensor(labels.astype(np.int32)))
        np.testing.assert_allclose(metric.eval(), expected)
        assert metric.eval(average=True) == pytest.approx(expected.mean())


def test_multilabel_precision_and_recall_are_per_sample():
    pred = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1]])
    truth = np.array([[1, 1, 0], [0, 1, 1], [0, 0, 1], [0, 0, 1]])
    hits = (pred * truth).sum(1)
    precision, recall = metrics.Precision("multilabel"), metrics.Recall("multilabel")
    for metric in (precision, recall):
        metric.update(pred[:2], truth[:2])
        metric.update(pred[2:], truth[2:])
    np.testing.assert_allclose(precision.eval(), hits / pred.sum(1))
    np.testing.assert_allclose(recall.eval(), hits / truth.sum(1))
    assert recall.eval(average=True) == pytest.approx(np.mean(hits / truth.sum(1)))


@pytest.mark.parametrize("k", [1, 2, 3, 6])
def test_topk_against_ranks(k):
    rng = np.random.default_rng(k)
    scores = rng.integers(0, 4, (40, 5)).astype(np.float64)  # many ties
    labels = rng.integers(0, 5, 40)
    # a label is in the top k when fewer than k classes rank before it: higher scores, or equal
    # scores at a lower index (ties go to the lower class)
    ranks = [np.sum(s > s[y]) + np.sum(s[:y] == s[y]) for s, y in zip(scores, labels)]
    metric = metrics.TopKCategoricalAccuracy(k)
    metric.update(scores[:25], labels[:25])
    metric.update(scores[25:], _one_hot(labels[25:], 5))
    assert metric.eval() == pytest.approx(np.mean(np.array(ranks) < k))


def test_loss_averages_the_mean_of_each_update():
    metric = metrics.Loss()
    metric.update(np.array([1.0, 2.0, 3.0]))
    metric.update(Tensor(np.array(4.0, np.float32)))
    assert metric.eval() == pytest.approx(3.0)
    metric.clear()
    metric.update([5.0])
    assert metric.eval() == 5.0


def test_call_is_clear_update_eval():
    metric = metrics.Accuracy()
    metric.update(np.array(LOGITS), np.array([0, 0, 0]))
    assert metric(np.array(LOGITS), np.array([1, 0, 0])) == 1.0


# -- errors ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", metrics.names())
def test_eval_before_update_raises(name):
    metric = metrics.get_metric_fn(name, 2) if name == "topk" else metrics.get_metric_fn(name)
    with pytest.raises(RuntimeError, match=f"{type(metric).__name__}.eval: the number of samples "
                                           "is 0.*must have at least one example"):
        metric.eval()
    if name not in ("loss", "mae", "mse"):  # the classifiers
        metric.update(np.array(LOGITS), np.array([1, 0, 1]))
        metric.clear()
        with pytest.raises(RuntimeError, match="must have at least one example"):
            metric.eval()


@pytest.mark.parametrize("metric, inputs, error, match", [
    (metrics.Accuracy(), (np.array(LOGITS),), ValueError,
     r"Accuracy.update: needs 2 inputs \(y_pred, y\), but got 1"),
    (metrics.Accuracy(), (np.array(LOGITS), np.array([1, 0])), ValueError,
     r"y must be class indices .* shape must be \(3,\), but got \(2,\)"),
    (metrics.Precision(), (np.array(LOGITS), np.array([1, 2, 0])), ValueError,
     r"Precision.update: y must hold class indices in \[0, 2\)"),
    (metrics.Accuracy(), (np.array(LOGITS), np.array([0.5, 1, 0])), ValueError,
     "class indices"),
    (metrics.Recall("multilabel"), (np.array([[0.3, 1]]), np.array([[0, 1]])), ValueError,
     "y_pred and y must hold only 0 and 1"),
    (metrics.Accuracy(), (np.array([0.1, 0.9]), np.array(1)), ValueError,
     r"y_pred must be \(N, C, ...\)"),
    (metrics.Accuracy(), ({"a": 1}, np.array([1])), TypeError,
     "Metric inputs must be an ember Tensor, a NumPy array or a list, but got dict"),
    (metrics.Top1CategoricalAccuracy(), (np.array(LOGITS), np.array([[1], [0], [1]])),
     ValueError, r"y_pred must be \(N, C\) and y \(N,\)"),
    (metrics.Loss(), (np.ones((2, 2)),), ValueError, r"loss must be 0-d or 1-d"),
    (metrics.Loss(), (1.0, 2.0), ValueError, r"Loss.update: needs 1 input"),
])
def test_update_errors(metric, inputs, error, match):
    with pytest.raises(error, match=match):
        metric.update(*inputs)


def test_class_number_must_not_change_between_updates():
    metric = metrics.Recall()
    metric.update(np.array(LOGITS), np.array([1, 0, 1]))
    with pytest.raises(ValueError, match="y_pred has 3 classes, but earlier updates had 2"):
        metric.update(np.ones((1, 3)), np.array([2]))


@pytest.mark.parametrize("make, error, match", [
    (lambda: metrics.Accuracy("binary"), ValueError,
     r"Accuracy: eval_type must be one of \('classification', 'multilabel'\), but got 'binary'"),
    (lambda: metrics.Precision(1), TypeError, "Precision: eval_type must be a str"),
    (lambda: metrics.TopKCategoricalAccuracy(0), ValueError, "k must be at least 1, but got 0"),
    (lambda: metrics.TopKCategoricalAccuracy(2.0), TypeError, "k must be an int, but got float"),
    (lambda: metrics.Loss().set_indexes((0,)), ValueError, "indexes must be a list of int"),
    (lambda: metrics.get_metric_fn("f1"), KeyError, r"unknown metric 'f1'; known: \['acc'"),
    (lambda: metrics.get_metrics(["acc"]), TypeError, "must be None, a dict or a set"),
    (lambda: metrics.get_metrics({"acc": 1}), TypeError, "'acc' maps to int"),
])
def test_construction_errors(make, error, match):
    with pytest.raises(error, match=match):
        make()


def test_eval_average_must_be_bool_and_indexes_must_fit():
    metric = metrics.Precision()
    metric.update(np.array(LOGITS), np.array([1, 0, 1]))
    with pytest.raises(TypeError, match="Precision.eval: average must be a bool"):
        metric.eval(average=1)
    with pytest.raises(ValueError, match=r"indexes \[0, 3\] do not fit the 2 inputs"):
        metrics.Accuracy().set_indexes([0, 3]).update(np.array(LOGITS), np.array([1, 0, 1]))


# -- names and custom metrics ----------------------------------------------------------------
def test_names_and_get_metric_fn():
    assert metrics.names() == ["acc", "accuracy", "loss", "mae", "mse", "precision", "recall",
                               "top_1_accuracy", "top_5_accuracy", "topk"]
    assert type(metrics.get_metric_fn("accuracy")) is metrics.Accuracy
    assert type(metrics.get_metric_fn("top_5_accuracy")) is metrics.Top5CategoricalAccuracy
    assert metrics.get_metric_fn("topk", 3).k == 3
    assert metrics.get_metric_fn("precision", eval_type="multilabel")._type == "multilabel"
    built = metrics.get_metrics({"loss", "acc"})
    assert sorted(built) == ["acc", "loss"] and isinstance(built["loss"], metrics.Loss)
    assert metrics.get_metrics(None) is None


def test_rearrange_inputs_on_a_custom_metric():
    class Echo(metrics.Metric):
        def clear(self):
            self.seen = None

        @metrics.rearrange_inputs
        def update(self, *inputs):
            self.seen = inputs

        def eval(self):
            return self.seen

    assert Echo().set_indexes([1, 0])(5, 9) == (9, 5)
    assert Echo()(5, 9) == (5, 9)
    with pytest.raises(TypeError, match="abstract"):
        metrics.Metric()
