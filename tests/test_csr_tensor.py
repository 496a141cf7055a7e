"""CSRTensor: MindSpore 1.6's documented example, ``csr * dense`` against the product of the
dense forms, and the constructor's checks."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember import CSRTensor, Tensor

INDPTR = Tensor([0, 1, 3, 3])
INDICES = Tensor([2, 0, 3])
VALUES = Tensor([1.0, 2.0, -3.0], ember.float32)
SHAPE = (3, 4)


def dense(csr: CSRTensor) -> np.ndarray:
    """The dense form, written from the CSR definition."""
    out = np.zeros(csr.shape, np.float32)
    indptr, indices, values = (t.asnumpy() for t in csr.to_tuple()[:3])
    for row in range(csr.shape[0]):
        for k in range(indptr[row], indptr[row + 1]):
            out[row, indices[k]] = values[k]
    return out


def test_number_times_csr() -> None:
    product = 2 * CSRTensor(INDPTR, INDICES, VALUES, SHAPE)
    np.testing.assert_allclose(product.values.asnumpy(), [2.0, 4.0, -6.0])


def test_documented_example_and_copy() -> None:
    csr = CSRTensor(Tensor([0, 1, 2]), Tensor([0, 1]), Tensor([1, 2], ember.float32), (2, 4))
    np.testing.assert_array_equal((csr.indptr == Tensor([0, 1, 2])).asnumpy(), [True] * 3)
    copy = CSRTensor(csr_tensor=csr)
    assert copy.shape == (2, 4) and copy.dtype == ember.float32
    np.testing.assert_array_equal(dense(copy), [[1, 0, 0, 0], [0, 2, 0, 0]])


@pytest.mark.parametrize("other", [np.arange(12, dtype=np.float32).reshape(3, 4) - 5,
                                   np.array([2.0, -1.0, 0.5, 4.0], np.float32)])
def test_mul_by_a_dense_tensor_keeps_the_pattern(other) -> None:
    csr = CSRTensor(INDPTR, INDICES, VALUES, SHAPE)
    for product in (csr * Tensor(other), csr * other):
        assert isinstance(product, CSRTensor) and product.shape == SHAPE
        np.testing.assert_array_equal(product.indices.asnumpy(), INDICES.asnumpy())
        np.testing.assert_allclose(dense(product), dense(csr) * other)


@pytest.mark.parametrize(("args", "error", "match"), [
    ((INDPTR, INDICES, VALUES), TypeError, "three Tensors and a tuple"),
    ((INDPTR, INDICES, VALUES, [3, 4]), TypeError, "three Tensors and a tuple"),
    ((Tensor([0.0, 1, 3, 3]), INDICES, VALUES, SHAPE), TypeError,
     "indptr must be an int16, int32 or int64 Tensor, but got Float32"),
    ((INDPTR, INDICES, VALUES, (4, 4)), ValueError, "indptr of rows \\+ 1 elements"),
    ((INDPTR, Tensor([0, 1]), VALUES, SHAPE), ValueError, "1-D of one length"),
])
def test_bad_arguments(args, error, match) -> None:
    with pytest.raises(error, match=match):
        CSRTensor(*args)
    with pytest.raises(TypeError, match="csr_tensor must be a CSRTensor, but got NoneType"):
        CSRTensor()
