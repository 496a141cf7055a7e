"""Sparse (COO) kernels on TensorFlow, written with scatters and segment sums that XLA
compiles."""

from __future__ import annotations

from ember_gpu.device import import_tensorflow

tf = import_tensorflow()


def _sparse_to_dense(indices, values, shape):
    return tf.tensor_scatter_nd_update(tf.zeros(shape, values.dtype), indices, values)


def _sparse_dense_matmul(prim):
    adjoint_st, adjoint_dt = prim.adjoint_st, prim.adjoint_dt

    def kernel(indices, values, shape, dense):
        rows, cols = (indices[:, 1], indices[:, 0]) if adjoint_st else (indices[:, 0],
                                                                         indices[:, 1])
        dense = tf.transpose(dense) if adjoint_dt else dense
        products = values[:, None] * tf.gather(dense, cols)
        return tf.math.unsorted_segment_sum(products, rows, shape[1] if adjoint_st else shape[0])

    return kernel


KERNELS = {
    "SparseToDense": lambda p: _sparse_to_dense,
    "SparseTensorDenseMatmul": _sparse_dense_matmul,
}
