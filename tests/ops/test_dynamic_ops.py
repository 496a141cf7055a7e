"""Value-shaped primitives: MindSpore's documented examples in PyNative mode, and GRAPH_MODE's
error that names the primitive and the user's line."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Tensor, context, nn, ops
from ember.ops import operations as P


def test_unique_documented_example():
    y, idx = ops.unique(Tensor(np.array([1, 2, 5, 2], np.int32)))
    assert y.shape == (3,) and idx.shape == (4,)
    np.testing.assert_array_equal(y.asnumpy(), [1, 2, 5])
    np.testing.assert_array_equal(idx.asnumpy(), [0, 1, 2, 1])


def test_masked_select_documented_example_and_gradient():
    x = Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32))
    mask = Tensor(np.array([True, False, True, False]))
    out = ops.masked_select(x, mask)
    assert out.shape == (2,)
    np.testing.assert_array_equal(out.asnumpy(), [1.0, 3.0])
    grad = ops.GradOperation()(lambda x: ops.reduce_sum(ops.masked_select(x, mask)))(x)
    np.testing.assert_array_equal(grad.asnumpy(), [1.0, 0.0, 1.0, 0.0])


def test_dynamic_shape_is_an_int32_tensor():
    out = P.DynamicShape()(Tensor(np.ones((3, 2, 1), np.float32)))
    assert str(out) == "[3 2 1]" and out.dtype == ops.dtype(Tensor(np.int32(1)))


_BOXES = np.array([[1, 2, 3, 4], [1, 3, 3, 4], [1, 3, 4, 4], [1, 1, 4, 4], [1, 1, 3, 4]],
                  np.float32)
_SCORES = np.array([0.4, 0.5, 0.72, 0.9, 0.45], np.float32)


def test_non_max_suppression_takes_python_numbers():
    """The scalars may be Python numbers (a Python int gives int64 positions)."""
    out = P.NonMaxSuppressionV3()(Tensor(_BOXES), Tensor(_SCORES), 2, 0.5, 0.0)
    assert out.dtype == ops.dtype(Tensor(np.int64(1)))
    np.testing.assert_array_equal(out.asnumpy(), [3, 2])


def _nms(boxes=_BOXES, scores=_SCORES, most=5, iou=0.5, score=0.0):
    return P.NonMaxSuppressionV3()(Tensor(boxes), Tensor(scores), most, iou, score)


def _greedy(inputs=(2, 3, 4), lengths=(2, 2, 2), dtype=np.float32):
    logits, lengths = np.zeros(inputs, dtype), np.array(lengths, np.int32)
    return P.CTCGreedyDecoder()(Tensor(logits), Tensor(lengths))


class _Uniq(nn.Cell):
    def construct(self, x):
        return P.Unique()(x)


def test_graph_mode_names_the_primitive_and_the_line():
    context.set_context(mode=context.GRAPH_MODE)
    try:
        with pytest.raises(RuntimeError, match=r"Unique cannot be compiled into a graph \(at "
                                               r".*test_dynamic_ops.py:\d+\)"):
            _Uniq()(Tensor(np.array([1, 2, 2], np.int32)))
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)


ERRORS = [
    ("unique-rank", lambda: ops.unique(Tensor(np.ones((2, 2), np.int32))), ValueError,
     r"Unique: input_x must be 1-d, but got shape \[2, 2\]"),
    ("pad-num", lambda: P.UniqueWithPad()(Tensor(np.ones(2, np.int32)), 1.0), TypeError,
     "UniqueWithPad: pad_num must be an int, but got 1.0"),
    ("mask-dtype", lambda: ops.masked_select(Tensor([1.0]), Tensor([1.0])), TypeError,
     "MaskedSelect: input 'mask' must have dtype in"),
    ("mask-shape", lambda: ops.masked_select(Tensor(np.ones(2)), Tensor(np.ones(3, bool))),
     ValueError, r"MaskedSelect: shapes \[2\] and \[3\] cannot be broadcast"),
    ("nms-boxes", lambda: _nms(boxes=_BOXES[:, :3]), ValueError,
     r"NonMaxSuppressionV3: boxes must have shape \[num_boxes, 4\], but got \[5, 3\]"),
    ("nms-scores", lambda: _nms(scores=_SCORES[:4]), ValueError,
     r"NonMaxSuppressionV3: scores must have shape \[5\] \(one per box\), but got \[4\]"),
    ("nms-dtypes", lambda: _nms(scores=_SCORES.astype(np.float16)), TypeError,
     r"NonMaxSuppressionV3: input 'scores' must have dtype in \[Float32\], but got Float16"),
    ("nms-max-output", lambda: _nms(most=2.0), TypeError,
     "NonMaxSuppressionV3: input 'max_output_size' must be a Tensor or an int, but got float"),
    ("nms-scalar-rank", lambda: _nms(most=Tensor(np.array([2], np.int32))), ValueError,
     r"NonMaxSuppressionV3: max_output_size must be 0-d, but got shape \[1\]"),
    ("nms-iou-range", lambda: _nms(iou=1.5), ValueError,
     r"NonMaxSuppressionV3: iou_threshold must be in \[0, 1\], but got 1.5"),
    ("greedy-flag", lambda: P.CTCGreedyDecoder(merge_repeated=1), TypeError,
     "CTCGreedyDecoder: 'merge_repeated' must be a bool, but got 1"),
    ("greedy-dtype", lambda: _greedy(dtype=np.float16), TypeError,
     "CTCGreedyDecoder: input 'inputs' must have dtype in"),
    ("greedy-rank", lambda: _greedy(inputs=(2, 3)), ValueError,
     r"CTCGreedyDecoder: inputs must be 3-d \(max_time, batch_size, num_classes\)"),
    ("greedy-batch", lambda: _greedy(lengths=(2, 2)), ValueError,
     r"CTCGreedyDecoder: sequence_length must have shape \[3\] \(batch_size\), but got \[2\]"),
    ("greedy-length", lambda: _greedy(lengths=(2, 3, 0)), ValueError,
     r"CTCGreedyDecoder: sequence_length must lie in \[0, 2\] \(max_time\), but got "
     r"\[2, 3, 0\]"),
]


@pytest.mark.parametrize("call, error, match", [c[1:] for c in ERRORS],
                         ids=[c[0] for c in ERRORS])
def test_errors_name_the_op_and_what_is_accepted(call, error, match):
    with pytest.raises(error, match=match):
        call()
