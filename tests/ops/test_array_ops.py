"""Layout primitives against NumPy: values, shapes, dtypes, gradients and errors."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_grad

from ember import Tensor, ops
from ember.common import dtype as mstype
from ember.ops import operations as P

RNG = np.random.default_rng(0)


def arr(*shape, dtype=np.float64):
    return RNG.standard_normal(shape).astype(dtype)


def ints(*values, dtype=np.int32):
    return Tensor(np.array(values, dtype))


X234 = arr(2, 3, 4)
X2345 = arr(2, 3, 4, 5)


def _gather_nd_oracle(x, idx):
    flat = idx.reshape(-1, idx.shape[-1])
    picked = [x[tuple(row)] for row in flat]
    return np.array(picked).reshape(idx.shape[:-1] + x.shape[idx.shape[-1]:])


def _scatter_add_oracle(x, idx, updates):
    out = x.copy()
    flat = idx.reshape(-1, idx.shape[-1])
    slices = updates.reshape((len(flat),) + x.shape[idx.shape[-1]:])
    for row, u in zip(flat, slices, strict=True):
        out[tuple(row)] += u
    return out


# (id, ember function, NumPy oracle, inputs as NumPy arrays or Python values)
FORWARD = [
    ("reshape", lambda x: ops.reshape(x, (4, -1)), lambda x: x.reshape(4, 6), [X234]),
    ("reshape-0d", lambda x: ops.reshape(x, (1, 1)), lambda x: x.reshape(1, 1),
     [np.array(3, np.int8)]),
    ("reshape-empty", lambda x: ops.reshape(x, (3, 0)), lambda x: x.reshape(3, 0),
     [np.zeros((0, 3), np.float32)]),
    ("transpose", lambda x: ops.transpose(x, (2, 0, 1)), lambda x: np.moveaxis(x, 2, 0), [X234]),
    ("transpose-int", lambda x: ops.transpose(x, [1, 0]), lambda x: x.T,
     [np.arange(6, dtype=np.int32).reshape(2, 3)]),
    ("transpose-0d", lambda x: ops.transpose(x, ()), lambda x: x, [np.array(2.5)]),
    ("expand_dims-0", lambda x: ops.expand_dims(x, 0), lambda x: x[None], [X234]),
    ("expand_dims--1", lambda x: ops.expand_dims(x, -1), lambda x: x[..., None], [X234]),
    ("expand_dims-mid", lambda x: ops.expand_dims(x, 2), lambda x: x[:, :, None], [X234]),
    ("expand_dims-0d", lambda x: ops.expand_dims(x, -1), lambda x: x.reshape(1),
     [np.array(True)]),
    ("squeeze-all", lambda x: ops.squeeze(x), lambda x: x.reshape(3, 4),
     [arr(1, 3, 1, 4, 1)]),
    ("squeeze-axis", lambda x: P.Squeeze(2)(x), lambda x: x.reshape(1, 3, 4, 1),
     [arr(1, 3, 1, 4, 1)]),
    ("squeeze-tuple", lambda x: ops.squeeze(x, (0, -1)), lambda x: x.reshape(3, 1, 4),
     [arr(1, 3, 1, 4, 1)]),
    ("squeeze-empty", lambda x: ops.squeeze(x), lambda x: x.reshape(0),
     [np.zeros((1, 0, 1), np.float32)]),
    ("identity", lambda x: P.Identity()(x), lambda x: x, [np.arange(5, dtype=np.uint8)]),
    ("broadcast_to", lambda x: ops.broadcast_to(x, (2, 3, 4)),
     lambda x: x + np.zeros((2, 3, 4)), [arr(3, 1)]),
    ("broadcast_to-keep", lambda x: ops.broadcast_to(x, (-1, 4)),
     lambda x: np.repeat(x, 4, 1), [arr(2, 1)]),
    ("tile", lambda x: ops.tile(x, (2, 3)), lambda x: np.block([[x] * 3] * 2), [arr(2, 3)]),
    ("tile-pad", lambda x: ops.tile(x, (2, 1, 2)),
     lambda x: np.concatenate([np.concatenate([x, x], -1)[None]] * 2), [arr(3, 2)]),
    ("tile-bool", lambda x: ops.tile(x, (1, 2)), lambda x: np.hstack([x, x]),
     [np.array([[True], [False]])]),
    ("concat-0", lambda a, b: ops.concat((a, b)), lambda a, b: np.vstack([a, b]),
     [arr(2, 3), arr(4, 3)]),
    ("concat-last", lambda a, b, c: P.Concat(-1)([a, b, c]),
     lambda a, b, c: np.dstack([a, b, c]), [arr(2, 3, 1), arr(2, 3, 2), arr(2, 3, 0)]),
    ("concat-one", lambda a: ops.concat((a,), 1), lambda a: a, [np.arange(4, dtype=np.int8)[None]]),
    ("stack-0", lambda a, b: ops.stack((a, b)), lambda a, b: np.array([a, b]),
     [arr(2, 3), arr(2, 3)]),
    ("stack-last", lambda a, b, c: P.Stack(-1)((a, b, c)),
     lambda a, b, c: np.moveaxis(np.array([a, b, c]), 0, -1),
     [np.ones((2, 2), np.int64), np.zeros((2, 2), np.int64), np.full((2, 2), 7, np.int64)]),
    ("stack-0d", lambda a, b: ops.stack([a, b]), lambda a, b: np.array([a, b]),
     [np.array(1.5, np.float32), np.array(2.5, np.float32)]),
    ("slice", lambda x: ops.slice(x, (1, 0, 1), (1, 2, 3)), lambda x: x[1:2, 0:2, 1:4], [X234]),
    ("slice-rest", lambda x: P.Slice()(x, [0, 1, 2], [-1, -1, 1]), lambda x: x[:, 1:, 2:3],
     [X234]),
    ("slice-empty", lambda x: ops.slice(x, (2, 0, 0), (0, 3, 4)), lambda x: x[2:2], [X234]),
    ("slice-0d", lambda x: ops.slice(x, (), ()), lambda x: x, [np.array(7, np.int16)]),
    ("strided", lambda x: ops.strided_slice(x, (1, 0, 0), (2, 1, 3), (1, 1, 1)),
     lambda x: x[1:2, 0:1, 0:3], [X234]),
    ("strided-steps", lambda x: ops.strided_slice(x, (0, 2, -1), (2, -4, 0), (1, -1, -2)),
     lambda x: x[0:2, 2:-4:-1, -1:0:-2], [X234]),
    ("strided-clamp", lambda x: ops.strided_slice(x, (-9, 1), (9, 99), (2, 1)),
     lambda x: x[-9:9:2, 1:99], [X234]),
    ("strided-short", lambda x: ops.strided_slice(x, (1,), (2,), (1,)), lambda x: x[1:2],
     [X234]),
    ("strided-masks", lambda x: ops.strided_slice(x, (1, 2, 3), (0, 0, 1), (1, -1, 1),
                                                  begin_mask=0b010, end_mask=0b011),
     lambda x: x[1:, ::-1, 3:1], [X234]),
    ("strided-shrink", lambda x: ops.strided_slice(x, (1, -1), (2, 0), (1, 1),
                                                   shrink_axis_mask=0b11),
     lambda x: x[1, -1], [X234]),
    ("strided-new", lambda x: ops.strided_slice(x, (0, 0, 1), (1, 1, 2), (1, 1, 1),
                                                new_axis_mask=0b101),
     lambda x: x[None, 0:1, None], [X234]),
    ("strided-ellipsis", lambda x: ops.strided_slice(x, (1, 0, 0, 3), (2, 0, 0, 5), (1, 1, 1, 1),
                                                     ellipsis_mask=0b10, new_axis_mask=0b100),
     lambda x: x[1:2, ..., None, 3:5], [X2345]),
    ("strided-ellipsis-first", lambda x: ops.strided_slice(x, (0, 2), (0, 0), (1, 1),
                                                           ellipsis_mask=1, shrink_axis_mask=2),
     lambda x: x[..., 2], [X2345]),
    ("strided-all-shrink-0d", lambda x: ops.strided_slice(x, (1, 2), (2, 3), (1, 1),
                                                          shrink_axis_mask=3),
     lambda x: x[1, 2], [np.arange(12, dtype=np.int32).reshape(3, 4)]),
    ("strided-empty-range", lambda x: ops.strided_slice(x, (3,), (1,), (1,)), lambda x: x[3:1],
     [np.arange(5.0)]),
    ("gather-0", lambda x, i: ops.gather(x, i, 0), lambda x, i: x[[1, 0, 1]],
     [X234, np.array([1, 0, 1], np.int32)]),
    ("gather-1-2d", lambda x, i: ops.gather(x, i, 1), lambda x, i: x[:, [[2, 0], [1, 1]]],
     [X234, np.array([[2, 0], [1, 1]], np.int64)]),
    ("gather-neg", lambda x, i: ops.gather(x, i, -1), lambda x, i: x[..., [3, 0, 2]],
     [X234, np.array([-1, 0, -2], np.int32)]),
    ("gather-0d-index", lambda x, i: ops.gather(x, i, 2), lambda x, i: x[:, :, 2],
     [X234, np.array(2, np.int8)]),
    ("gather-empty", lambda x, i: ops.gather(x, i, 0), lambda x, i: x[[]],
     [X234, np.zeros(0, np.int32)]),
    ("gather-bool", lambda x, i: ops.gather(x, i, 0), lambda x, i: x[[1, 1, 0]],
     [np.array([True, False]), np.array([1, 1, 0], np.int64)]),
    ("gather_nd-full", lambda x, i: ops.gather_nd(x, i), _gather_nd_oracle,
     [X234, np.array([[0, 2, 3], [1, 0, -1]], np.int32)]),
    ("gather_nd-partial", lambda x, i: ops.gather_nd(x, i), _gather_nd_oracle,
     [X234, np.array([[[1], [0]], [[0], [0]]], np.int64)]),
    ("gather_nd-int", lambda x, i: ops.gather_nd(x, i), _gather_nd_oracle,
     [np.arange(12, dtype=np.int16).reshape(3, 4), np.array([[2, 1], [0, 3]], np.int32)]),
    ("scatter_add", lambda x, i, u: ops.tensor_scatter_add(x, i, u), _scatter_add_oracle,
     [arr(3, 4), np.array([[0, 1], [0, 1], [2, -1]], np.int32), arr(3)]),
    ("scatter_add-rows", lambda x, i, u: ops.tensor_scatter_add(x, i, u), _scatter_add_oracle,
     [np.zeros((3, 2), np.int32), np.array([[1], [1], [0]], np.int64),
      np.arange(6, dtype=np.int32).reshape(3, 2)]),
    ("one_hot", lambda i, on, off: ops.one_hot(i, 4, on, off),
     lambda i, on, off: np.where(np.eye(4)[i % 4] * (i < 4)[..., None] * (i >= 0)[..., None],
                                 on, off).astype(np.float32),
     [np.array([[0, 3], [5, -1]], np.int32), np.array(2.0, np.float32),
      np.array(-1.0, np.float32)]),
    ("one_hot-axis0", lambda i, on, off: P.OneHot(0)(i, 3, on, off),
     lambda i, on, off: np.eye(3, dtype=np.float16)[:, i], [np.array([2, 0, 1, 1], np.int64),
                                                             np.array(1.0, np.float16),
                                                             np.array(0.0, np.float16)]),
    ("one_hot-depth0", lambda i, on, off: ops.one_hot(i, 0, on, off, axis=1),
     lambda i, on, off: np.zeros((2, 0, 1), np.float32), [np.array([[0], [1]], np.int32),
                                                           np.array(1.0, np.float32),
                                                           np.array(0.0, np.float32)]),
]


@pytest.mark.parametrize("fn, oracle, inputs", [c[1:] for c in FORWARD],
                         ids=[c[0] for c in FORWARD])
def test_forward_matches_numpy(fn, oracle, inputs):
    out = fn(*[Tensor(v) for v in inputs])
    want = np.asarray(oracle(*inputs))
    assert out.shape == want.shape
    assert out.dtype is mstype.from_numpy(want.dtype)
    np.testing.assert_array_equal(out.asnumpy(), want)


def test_split_returns_equal_parts():
    x = arr(2, 6, 3)
    parts = ops.split(Tensor(x), 1, 3)
    assert isinstance(parts, tuple) and len(parts) == 3
    for got, want in zip(parts, np.split(x, 3, axis=1), strict=True):
        assert got.shape == (2, 2, 3) and got.dtype is mstype.float64
        np.testing.assert_array_equal(got.asnumpy(), want)
    (whole,) = P.Split()(Tensor(np.arange(4, dtype=np.int8)))
    assert whole.dtype is mstype.int8
    np.testing.assert_array_equal(whole.asnumpy(), np.arange(4))
    empty = P.Split(-1, 2)(Tensor(np.zeros((0, 4), np.float32)))
    assert [p.shape for p in empty] == [(0, 2), (0, 2)]


def test_static_facts_are_python_values():
    x = Tensor(np.zeros((2, 0, 3), np.float32))
    assert ops.shape(x) == (2, 0, 3) and ops.rank(x) == 3 and ops.size(x) == 0
    scalar = Tensor(np.float32(1))
    assert P.Shape()(scalar) == () and P.Rank()(scalar) == 0 and P.Size()(scalar) == 1
    assert type(ops.rank(x)) is int and type(ops.size(x)) is int


def test_functional_forms_share_one_primitive_per_attribute_set():
    x = Tensor(arr(2, 2))
    ops.concat((x, x), 1)
    from ember.ops.operations import array_ops

    assert array_ops._prim(P.Concat, 1) is array_ops._prim(P.Concat, 1)
    assert array_ops._prim(P.Concat, 1) is not array_ops._prim(P.Concat, 0)


# (id, function of float64 tensors and constants, inputs)
GRAD = [
    ("reshape", lambda x: ops.reshape(x, (4, 6)), [X234]),
    ("transpose", lambda x: ops.transpose(x, (1, 2, 0)), [X234]),
    ("expand_dims", lambda x: ops.expand_dims(x, 1), [arr(2, 3)]),
    ("squeeze", lambda x: P.Squeeze((0, 2))(x), [arr(1, 3, 1, 2)]),
    ("identity", lambda x: P.Identity()(x), [arr(3)]),
    ("broadcast_to", lambda x: ops.broadcast_to(x, (2, 3, 4)), [arr(3, 1)]),
    ("tile", lambda x: ops.tile(x, (2, 1, 3)), [arr(2, 2)]),
    ("concat", lambda a, b, c: ops.concat((a, b, c), 1), [arr(2, 1), arr(2, 3), arr(2, 2)]),
    ("concat-neg", lambda a, b: P.Concat(-2)((a, b)), [arr(1, 2), arr(3, 2)]),
    ("stack", lambda a, b: ops.stack((a, b), 1), [arr(2, 3), arr(2, 3)]),
    ("stack-neg", lambda a, b, c: P.Stack(-1)([a, b, c]), [arr(2), arr(2), arr(2)]),
    ("split-one-used", lambda x: ops.split(x, 1, 3)[2], [arr(2, 6)]),
    ("split-all-used", lambda x: ops.concat(ops.split(x, 0, 2)[::-1], 1), [arr(4, 3)]),
    ("slice", lambda x: ops.slice(x, (1, 0, 2), (1, -1, 2)), [X234]),
    ("strided", lambda x: ops.strided_slice(x, (0, 2, -1), (2, -4, 0), (1, -1, -2)), [X234]),
    ("strided-masks", lambda x: ops.strided_slice(x, (1, 0, 0, 3), (2, 0, 0, 5), (1, 1, 1, 1),
                                                  ellipsis_mask=0b10, new_axis_mask=0b100),
     [arr(2, 2, 2, 5)]),
    ("strided-shrink", lambda x: ops.strided_slice(x, (1, -1), (2, 0), (1, 1),
                                                   shrink_axis_mask=0b11), [X234]),
    ("strided_grad", lambda dy: P.StridedSliceGrad(0, 1)(dy, (4, 3), (1, 0), (3, 3), (1, 2)),
     [arr(3, 2)]),
    ("gather-0-repeats", lambda x: ops.gather(x, ints(1, 0, 1, 1), 0), [arr(3, 2)]),
    ("gather-1-2d", lambda x: ops.gather(x, ints([2, 0], [1, -1]), 1), [X234]),
    ("gather-last", lambda x: ops.gather(x, ints(3, 0, 3), 2), [X234]),
    ("gather-0d-index", lambda x: ops.gather(x, ints(2), 0), [arr(3, 2)]),
    ("gather_nd", lambda x: ops.gather_nd(x, ints([0, 1], [0, 1], [1, 2])), [X234]),
    ("scatter_add", lambda x, u: ops.tensor_scatter_add(x, ints([0], [2], [0]), u),
     [arr(3, 2), arr(3, 2)]),
    ("one_hot", lambda on, off: ops.one_hot(ints(0, 2, 5), 3, on, off), [arr(), arr()]),
]


@pytest.mark.parametrize("fn, inputs", [c[1:] for c in GRAD], ids=[c[0] for c in GRAD])
def test_backward_matches_finite_differences(fn, inputs):
    check_grad(fn, *[Tensor(v) for v in inputs])


def _second_order(fn):
    """The first gradient of sum(fn(x) ** 2), as a function to check again."""
    return ops.GradOperation()(lambda x: ops.reduce_sum(ops.mul(fn(x), fn(x))))


@pytest.mark.parametrize("fn", [
    lambda x: ops.gather(x, ints(1, 1, 0), 1),
    lambda x: ops.strided_slice(x, (1, 0), (3, 3), (1, 2)),
    lambda x: ops.concat(ops.split(x, 1, 3)[::-1], 0),
    lambda x: ops.stack((x, x), 2),
], ids=["gather", "strided_slice", "concat-split", "stack"])
def test_gradients_of_gradients(fn):
    check_grad(_second_order(fn), Tensor(arr(3, 3)))


X = Tensor(np.zeros((2, 3), np.float32))
I32 = ints(0, 1)

# (id, call, exception type, message pattern)
ERRORS = [
    ("reshape-size", lambda: ops.reshape(X, (4,)), ValueError, r"Reshape: cannot reshape"),
    ("transpose-length", lambda: ops.transpose(X, (0,)), ValueError,
     r"Transpose: perm \[0\] must be a permutation of 0..1"),
    ("transpose-repeat", lambda: ops.transpose(X, (1, 1)), ValueError, r"Transpose: perm"),
    ("transpose-type", lambda: ops.transpose(X, 1), TypeError,
     r"Transpose: perm must be a tuple of ints"),
    ("transpose-x", lambda: ops.transpose([1, 2], (0,)), TypeError,
     r"Transpose: input 'x' must be a Tensor"),
    ("expand_dims-range", lambda: ops.expand_dims(X, 3), ValueError,
     r"ExpandDims: axis 3 is out of range \[-3, 3\) for a tensor of rank 2"),
    ("expand_dims-type", lambda: ops.expand_dims(X, 1.0), TypeError,
     r"ExpandDims: axis must be an int"),
    ("squeeze-size", lambda: ops.squeeze(X, 1), ValueError,
     r"Squeeze: cannot squeeze dimension 1 .* its size is 3, not 1"),
    ("squeeze-range", lambda: ops.squeeze(X, 2), ValueError, r"Squeeze: axis 2 is out of range"),
    ("squeeze-attr", lambda: P.Squeeze([0]), TypeError,
     r"Squeeze: axis must be an int or a tuple of ints"),
    ("broadcast_to", lambda: ops.broadcast_to(X, (3, 3)), ValueError,
     r"BroadcastTo: cannot broadcast shape \[2, 3\] to \[3, 3\]"),
    ("tile-short", lambda: ops.tile(X, (2,)), ValueError,
     r"Tile: multiples \[2\] must have at least one entry per dimension"),
    ("tile-zero", lambda: ops.tile(X, (0, 1)), ValueError, r"Tile: .* must all be positive"),
    ("concat-shape", lambda: ops.concat((X, Tensor(np.zeros((2, 2), np.float32))), 0),
     ValueError, r"Concat: input_x\[1\] of shape \[2, 2\] cannot be joined .* along axis 0"),
    ("concat-dtype", lambda: ops.concat((X, Tensor(np.zeros((2, 3), np.int32)))), TypeError,
     r"Concat: all tensors of input_x must have the same dtype, but got \[Float32, Int32\]"),
    ("concat-not-tensor", lambda: ops.concat((X, 1)), TypeError,
     r"Concat: input 'input_x\[1\]' must be a Tensor, but got int"),
    ("concat-not-seq", lambda: ops.concat(X), TypeError,
     r"Concat: input_x must be a tuple or list of Tensors, but got Tensor"),
    ("concat-empty", lambda: ops.concat(()), ValueError, r"Concat: input_x must hold at least"),
    ("concat-axis", lambda: ops.concat((X, X), 2), ValueError, r"Concat: axis 2 is out of range"),
    ("concat-attr", lambda: P.Concat(axis=None), TypeError, r"Concat: axis must be an int"),
    ("stack-shape", lambda: ops.stack((X, Tensor(np.zeros((3, 2), np.float32)))), ValueError,
     r"Stack: input_x\[1\] has shape \[3, 2\], but all tensors must have the shape"),
    ("stack-axis", lambda: ops.stack((X, X), -4), ValueError,
     r"Stack: axis -4 is out of range \[-3, 3\)"),
    ("split-divide", lambda: ops.split(X, 1, 2), ValueError,
     r"Split: dimension 1 of x with shape \[2, 3\] has size 3, which cannot be split into 2"),
    ("split-num", lambda: P.Split(0, 0), ValueError, r"Split: output_num must be at least 1"),
    ("split-axis-type", lambda: P.Split(True), TypeError, r"Split: axis must be an int"),
    ("slice-range", lambda: ops.slice(X, (1, 1), (2, 1)), ValueError,
     r"Slice: begin \[1, 1\] and size \[2, 1\] reach outside x of shape \[2, 3\] at dimension 0"),
    ("slice-length", lambda: ops.slice(X, (0,), (1,)), ValueError,
     r"Slice: .* one entry per dimension"),
    ("slice-type", lambda: ops.slice(X, (0, 0.5), (1, 1)), TypeError,
     r"Slice: begin must be a tuple of ints"),
    ("strided-zero-step", lambda: ops.strided_slice(X, (0,), (1,), (0,)), ValueError,
     r"StridedSlice: strides \[0\] must not contain 0"),
    ("strided-lengths", lambda: ops.strided_slice(X, (0, 0), (1,), (1,)), ValueError,
     r"StridedSlice: begin \[0, 0\], end \[1\] and strides \[1\] must have the same length"),
    ("strided-too-many", lambda: ops.strided_slice(X, (0, 0, 0), (1, 1, 1), (1, 1, 1)),
     ValueError, r"StridedSlice: .* indexes 3 dimensions, but x has shape \[2, 3\]"),
    ("strided-shrink-range", lambda: ops.strided_slice(X, (0, 3), (1, 4), (1, 1),
                                                       shrink_axis_mask=2), IndexError,
     r"StridedSlice: index 3 is out of range \[-3, 3\) for dimension 1"),
    ("strided-shrink-stride", lambda: ops.strided_slice(X, (1,), (0,), (-1,),
                                                        shrink_axis_mask=1), IndexError,
     r"StridedSlice: shrinking dimension 0 needs a positive stride"),
    ("strided-two-ellipses", lambda: P.StridedSlice(ellipsis_mask=0b11), ValueError,
     r"StridedSlice: ellipsis_mask 3 may have at most one bit set"),
    ("strided-negative-mask", lambda: P.StridedSlice(begin_mask=-1), ValueError,
     r"StridedSlice: begin_mask must be at least 0, but got -1"),
    ("strided-type", lambda: ops.strided_slice(X, [0], (1,), 1), TypeError,
     r"StridedSlice: strides must be a tuple of ints, but got 1"),
    ("strided_grad-dy", lambda: P.StridedSliceGrad()(X, (4, 3), (0,), (1,), (1,)), ValueError,
     r"StridedSliceGrad: dy has shape \[2, 3\], but the slice of shape \[4, 3\] has shape "
     r"\[1, 3\]"),
    ("gather-indices-dtype", lambda: ops.gather(X, Tensor(np.zeros(2, np.float32)), 0),
     TypeError, r"Gather: input 'input_indices' must have dtype in \[Int8, Int16, Int32, Int64\]"),
    ("gather-axis", lambda: ops.gather(X, I32, 2), ValueError,
     r"Gather: axis 2 is out of range \[-2, 2\)"),
    ("gather-value", lambda: ops.gather(X, ints(0, 3), 1), RuntimeError,
     r"Gather failed .*index 3 is out of bounds for axis 1 with size 3"),
    ("gather_nd-depth", lambda: ops.gather_nd(X, ints([0, 0, 0])), ValueError,
     r"GatherNd: the last dimension of indices \(shape \[1, 3\]\) must be in \[1, 2\]"),
    ("gather_nd-dtype", lambda: ops.gather_nd(X, Tensor(np.zeros((1, 2), np.int16))),
     TypeError, r"GatherNd: input 'indices' must have dtype in \[Int32, Int64\]"),
    ("gather_nd-value", lambda: ops.gather_nd(X, ints([2, 0])), RuntimeError,
     r"GatherNd failed .*out of bounds"),
    ("scatter-updates-shape", lambda: ops.tensor_scatter_add(X, ints([0]), X), ValueError,
     r"TensorScatterAdd: updates must have shape .* = \[1, 3\], but got \[2, 3\]"),
    ("scatter-updates-dtype",
     lambda: ops.tensor_scatter_add(X, ints([0, 1]), Tensor(np.zeros(1, np.float64))),
     TypeError, r"TensorScatterAdd: input 'updates' must have dtype in \[Float32\]"),
    ("scatter-bool", lambda: ops.tensor_scatter_add(Tensor([True]), ints([0]), Tensor([True])),
     TypeError, r"TensorScatterAdd: input 'input_x' must have dtype in \[.*\], but got Bool"),
    ("one_hot-indices", lambda: ops.one_hot(X, 2, Tensor(1.0), Tensor(0.0)), TypeError,
     r"OneHot: input 'indices' must have dtype in \[Int32, Int64\], but got Float32"),
    ("one_hot-depth", lambda: ops.one_hot(I32, -1, Tensor(1.0), Tensor(0.0)), ValueError,
     r"OneHot: depth must be at least 0, but got -1"),
    ("one_hot-values", lambda: ops.one_hot(I32, 2, Tensor(1.0), Tensor(np.float64(0))),
     TypeError, r"OneHot: input 'off_value' must have dtype in \[Float32\], but got Float64"),
    ("one_hot-scalar", lambda: ops.one_hot(I32, 2, Tensor([1.0, 2.0]), Tensor(0.0)), ValueError,
     r"OneHot: on_value must be a scalar Tensor, but got shape \[2\]"),
    ("one_hot-axis", lambda: P.OneHot(2)(I32, 2, Tensor(1.0), Tensor(0.0)), ValueError,
     r"OneHot: axis 2 is out of range \[-1, 1\]"),
    ("shape-not-tensor", lambda: ops.shape([1, 2]), TypeError,
     r"Shape: input 'input_x' must be a Tensor, but got list"),
]


@pytest.mark.parametrize("call, error, match", [c[1:] for c in ERRORS],
                         ids=[c[0] for c in ERRORS])
def test_errors_name_the_op_and_what_is_accepted(call, error, match):
    with pytest.raises(error, match=match):
        call()
