"""Tensor indexing (``getitem``) against NumPy's: values, shapes, dtypes, gradients, errors."""

from __future__ import annotations

import numpy as np
import pytest
from gradcheck import check_grad

from ember import Tensor
from ember.common import dtype as mstype
from ember.common._indexing import getitem

X = np.random.default_rng(1).standard_normal((3, 4, 5))
MASK = X[:, :, 0] > 0

# (id, index on NumPy arrays); Tensor indices are made from the NumPy ones in the test.
INDICES = [
    ("int", 1),
    ("negative-int", -1),
    ("ints", (2, -3)),
    ("all-ints", (0, 1, 2)),
    ("slice", slice(1, 3)),
    ("slice-step", (slice(None), slice(None, None, 2))),
    ("slice-negative-step", (slice(None, None, -1), slice(3, 0, -2), slice(-1, -6, -3))),
    ("slice-clamped", (slice(-10, 10), slice(2, 99, 5))),
    ("slice-empty", slice(3, 1)),
    ("slice-mixed", (1, slice(None, None, -1), 4)),
    ("none", None),
    ("nones", (None, 1, None, slice(None), None)),
    ("ellipsis", Ellipsis),
    ("ellipsis-int", (Ellipsis, 2)),
    ("int-ellipsis-none", (0, Ellipsis, None)),
    ("empty-tuple", ()),
    ("true", True),
    ("false", False),
    ("list", [2, 0, 2]),
    ("negative-list", [-1, 0]),
    ("empty-list", []),
    ("nested-list", [[0, 1], [2, 2]]),
    ("list-second-dim", (slice(None), [3, 0])),
    ("array-2d", np.array([[1, 0], [2, 2]])),
    ("two-lists-adjacent", (slice(None), [0, 3], [4, 1])),
    ("two-lists-broadcast", ([[0], [2]], [1, 3])),
    ("two-lists-apart", ([0, 2], slice(None), [1, 4])),
    ("int-then-list-apart", (0, slice(None), [1, 2])),
    ("int-next-to-list", (slice(None), 0, [1, 2])),
    ("list-none-list", ([0, 1], None, [1, 2])),
    ("list-ellipsis-list", ([0, 1], Ellipsis, [1, 2])),
    ("list-slice-step", ([2, 0], slice(None, None, -2))),
    ("three-lists", ([0, 1], [1, 2], [3, 4])),
    ("mask-full", X > 0.5),
    ("mask-leading", MASK),
    ("mask-row", np.array([True, False, True])),
    ("mask-after-slice", (slice(None), np.array([False, True, True, False]))),
    ("mask-and-list", (np.array([True, False, True]), slice(None), [0, 4])),
    ("bool-and-list", (slice(None), True, [1, 2])),
    ("int-and-bool", (0, True)),
    ("numpy-int", np.int64(2)),
    ("zero-d-array", np.array(1)),
]


def as_tensor_index(index):
    """The same index with its arrays and lists as ember Tensors."""
    if isinstance(index, tuple):
        return tuple(as_tensor_index(i) for i in index)
    if isinstance(index, list) or isinstance(index, np.ndarray) and index.ndim:
        array = np.asarray(index)
        return Tensor(array.astype(np.int32) if array.dtype.kind in "iu" or array.size == 0
                      else array)
    return index


@pytest.mark.parametrize("index", [c[1] for c in INDICES], ids=[c[0] for c in INDICES])
@pytest.mark.parametrize("tensor_indices", [False, True], ids=["python", "tensor"])
def test_values_match_numpy(index, tensor_indices):
    got = getitem(Tensor(X), as_tensor_index(index) if tensor_indices else index)
    want = X[index]
    assert got.shape == want.shape and got.dtype is mstype.float64
    np.testing.assert_array_equal(got.asnumpy(), want)


@pytest.mark.parametrize("index, want", [
    (Ellipsis, ()), (None, (1,)), ((), ()), (True, (1,)), ((None, Ellipsis, None), (1, 1)),
])
def test_zero_d_tensor(index, want):
    x = Tensor(np.int8(7))
    got = getitem(x, index)
    assert got.shape == want and got.dtype is mstype.int8
    np.testing.assert_array_equal(got.asnumpy(), np.int8(7)[index])


def test_dtypes_and_empty_tensors():
    x = np.arange(24, dtype=np.uint8).reshape(2, 3, 4)
    for index in [(1, slice(None, None, -1)), ([1, 0], 2), (x > 10,)]:
        got = getitem(Tensor(x), index)
        assert got.dtype is mstype.uint8
        np.testing.assert_array_equal(got.asnumpy(), x[index])
    empty = np.zeros((0, 3), np.float32)
    for index in [slice(None), (slice(None), 1), (Ellipsis, [0, 2])]:
        assert getitem(Tensor(empty), index).shape == empty[index].shape


def test_integer_tensor_indices_of_other_dtypes():
    x = Tensor(X)
    for dtype in (np.int8, np.uint8, np.int64):
        np.testing.assert_array_equal(
            getitem(x, Tensor(np.array([2, 0], dtype))).asnumpy(), X[[2, 0]])
    mixed = (Tensor(np.array([0, 2], np.int64)), slice(None), Tensor(np.array([4, 1], np.int16)))
    np.testing.assert_array_equal(getitem(x, mixed).asnumpy(), X[[0, 2], :, [4, 1]])


# Gradients flow through every kind of index; the indices themselves get none.
GRAD_INDICES = [
    ("int", (1, -1)),
    ("slices", (slice(None, None, -1), slice(1, 4, 2))),
    ("none-ellipsis", (None, Ellipsis, 2)),
    ("repeated-list", [0, 2, 0, 0]),
    ("list-second-dim", (slice(None), [3, 3, -1])),
    ("two-lists-apart", ([0, 2, 2], slice(1, 3), [1, 4, 1])),
    ("two-lists-adjacent", (slice(None, 2), [0, 3], [4, 4])),
    ("mask", MASK),
    ("tensor", Tensor(np.array([[1, 1], [0, 2]], np.int32))),
]


@pytest.mark.parametrize("index", [c[1] for c in GRAD_INDICES],
                         ids=[c[0] for c in GRAD_INDICES])
def test_gradients_through_indexing(index):
    check_grad(lambda x: getitem(x, index), Tensor(X))


# (id, index, exception type, message pattern)
ERRORS = [
    ("too-many", (0, 0, 0, 0), IndexError, r"too many indices for a tensor of dimension 3"),
    ("two-ellipses", (Ellipsis, 0, Ellipsis), IndexError, r"single ellipsis"),
    ("int-out-of-range", 3, IndexError,
     r"StridedSlice: index 3 is out of range \[-3, 3\) for dimension 0"),
    ("list-out-of-range", (slice(None), [0, -5]), IndexError,
     r"index -5 is out of bounds for axis 1 with size 4"),
    ("int-next-to-list-out-of-range", ([0], 7), IndexError,
     r"index 7 is out of bounds for axis 1 with size 4"),
    ("tensor-out-of-range", Tensor(np.array([3], np.int32)), RuntimeError,
     r"Gather failed .* out of bounds"),
    ("float", 1.0, IndexError, r"only integers, slices .* but got float"),
    ("float-list", [0.5], IndexError, r"must hold integers or bools, but got float64"),
    ("float-tensor", Tensor(np.array([0.0], np.float32)), IndexError,
     r"a Tensor index must have an integer or bool dtype, but got Float32"),
    ("mask-shape", np.array([True, False]), IndexError,
     r"boolean index of shape \[2\] does not match .* of shape \[3\]"),
    ("broadcast", ([0, 1], [0, 1, 2]), IndexError,
     r"shape mismatch: indexing arrays could not be broadcast together with shapes \[2\] \[3\]"),
    ("zero-step", slice(None, None, 0), ValueError, r"slice step cannot be zero"),
]


@pytest.mark.parametrize("index, error, match", [c[1:] for c in ERRORS],
                         ids=[c[0] for c in ERRORS])
def test_errors(index, error, match):
    with pytest.raises(error, match=match):
        getitem(Tensor(X), index)
