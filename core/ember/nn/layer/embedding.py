"""Embedding layers: a table of vectors looked up by integer ids."""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.nn.layer.basic import check_bool, check_int, make_parameter
from ember.ops import functional as F
from ember.ops import operations as P

__all__ = ["Embedding", "EmbeddingLookup"]


class Embedding(Cell):
    """``embedding_table[ids]``: parameter ``embedding_table`` (vocab_size, embedding_size);
    with ``use_one_hot`` the lookup is a one-hot matrix product; the row ``padding_idx``
    starts at zero."""

    def __init__(self, vocab_size: int, embedding_size: int, use_one_hot: bool = False,
                 embedding_table: Any = "normal", dtype: mstype.Type = mstype.int32,
                 padding_idx: int | None = None) -> None:
        super().__init__()
        self.vocab_size = check_int("Embedding", "vocab_size", vocab_size)
        self.embedding_size = check_int("Embedding", "embedding_size", embedding_size)
        self.use_one_hot = check_bool("Embedding", "use_one_hot", use_one_hot)
        if dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"Embedding: dtype must be ember.int32 or ember.int64, but got "
                            f"{dtype!r}")
        self.dtype = dtype
        table = make_parameter("Embedding", "embedding_table", embedding_table,
                               (vocab_size, embedding_size), "embedding_table")
        if padding_idx is not None:
            if not isinstance(padding_idx, int) or not 0 <= padding_idx < vocab_size:
                raise ValueError(f"Embedding: padding_idx must be an int in [0, {vocab_size}), "
                                 f"but got {padding_idx!r}")
            values = table.asnumpy()
            values[padding_idx] = 0
            table.set_data(Tensor(values))
        self.padding_idx = padding_idx
        self.embedding_table = table

    def construct(self, ids: Tensor) -> Tensor:
        if self.use_one_hot:
            flat = F.reshape(ids, (-1,))
            one_hot = P.OneHot()(flat, self.vocab_size, Tensor(1.0, self.embedding_table.dtype),
                                 Tensor(0.0, self.embedding_table.dtype))
            rows = F.matmul(one_hot, self.embedding_table)
            return F.reshape(rows, (*ids.shape, self.embedding_size))
        return F.gather(self.embedding_table, ids, 0)

    def extend_repr(self) -> str:
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, "
                f"use_one_hot={self.use_one_hot}, embedding_table={self.embedding_table!r}, "
                f"dtype={self.dtype}, padding_idx={self.padding_idx}")


class EmbeddingLookup(Cell):
    """Rows of parameter ``embedding_table`` (vocab_size, embedding_size) at ``indices``;
    with ``max_norm`` each row is scaled down to at most that L2 norm. ember keeps the table
    on the current device (``target``, ``slice_mode`` and caching are Ascend/PS settings)."""

    def __init__(self, vocab_size: int, embedding_size: int, param_init: Any = "normal",
                 target: str = "CPU", slice_mode: str = "batch_slice",
                 manual_shapes: Any = None, max_norm: float | None = None, sparse: bool = True,
                 vocab_cache_size: int = 0) -> None:
        super().__init__()
        self.vocab_size = check_int("EmbeddingLookup", "vocab_size", vocab_size)
        self.embedding_size = check_int("EmbeddingLookup", "embedding_size", embedding_size)
        if target not in ("CPU", "DEVICE"):
            raise ValueError(f"EmbeddingLookup: target must be 'CPU' or 'DEVICE', but got "
                             f"{target!r}")
        if max_norm is not None and not (isinstance(max_norm, int | float) and max_norm > 0):
            raise ValueError(f"EmbeddingLookup: max_norm must be a positive number, but got "
                             f"{max_norm!r}")
        self.target, self.max_norm = target, max_norm
        self.embedding_table = make_parameter("EmbeddingLookup", "param_init", param_init,
                                              (vocab_size, embedding_size), "embedding_table")

    def construct(self, indices: Tensor) -> Tensor:
        rows = F.gather(self.embedding_table, indices, 0)
        if self.max_norm is None:
            return rows
        norm = F.sqrt(P.ReduceSum(True)(F.square(rows), -1))
        return F.mul(rows, F.real_div(self.max_norm, F.maximum(norm, float(self.max_norm))))


