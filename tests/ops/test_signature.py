"""``__mindspore_signature__`` on a user primitive: inputs of one dtype group are converted to
one dtype before ``infer`` (MindSpore's implicit conversion); a written Parameter never is."""

from __future__ import annotations

import numpy as np
import pytest

import ember as ms
from ember import Parameter, Tensor
from ember.ops import PrimitiveWithInfer, prim_attr_register
from ember.ops.signature import make_sig, sig_dtype, sig_kind, sig_rw


class _Seen(PrimitiveWithInfer):
    """Returns its first input; records the dtypes ``infer_dtype`` saw."""

    __mindspore_signature__ = (sig_dtype.T, sig_dtype.T, sig_dtype.T1, sig_dtype.T1)

    @prim_attr_register
    def __init__(self):
        self.seen = None

    def infer_shape(self, *shapes):
        return shapes[0]

    def infer_dtype(self, *dtypes):
        self.seen = dtypes
        return dtypes[0]


def test_make_sig_defaults():
    sig = make_sig("x")
    assert (sig.name, sig.rw, sig.kind, sig.dtype) == (
        "x", sig_rw.RW_READ, sig_kind.KIND_POSITIONAL_KEYWORD, sig_dtype.T_EMPTY_DEFAULT_VALUE)


def test_groups_are_promoted_and_numbers_become_tensors():
    op = _Seen()
    i32 = Tensor(np.ones(2), ms.int32)
    f16 = Tensor(np.ones(2), ms.float16)
    converted = op.prepare((i32, f16, i32, 2.5))
    assert [t.dtype for t in converted] == [ms.float16, ms.float16, ms.float32, ms.float32]
    assert float(converted[3].asnumpy()) == 2.5
    ints = op.prepare((i32, 3, 1.0, 2))  # a group of numbers only stays as it is
    assert ints[1].dtype == ms.int32 and ints[2:] == (1.0, 2)


def test_a_written_parameter_is_not_converted():
    class Write(PrimitiveWithInfer):
        __mindspore_signature__ = (make_sig("var", sig_rw.RW_WRITE, dtype=sig_dtype.T),
                                   make_sig("value", dtype=sig_dtype.T))

    var = Parameter(Tensor(np.ones(2), ms.int32), "var")
    with pytest.raises(TypeError, match="Write: input 'var' is a Parameter"):
        Write().prepare((var, Tensor(np.ones(2), ms.float32)))
    value = Write().prepare((var, Tensor(np.ones(2), ms.int32)))[1]
    assert value.dtype == ms.int32


def test_number_category_is_every_number_dtype():
    from ember.common import dtype as mstype
    from ember.ops import operations as P

    assert P.IsSubClass()(ms.int8, mstype.number) and P.IsSubClass()(ms.bool_, mstype.number)
    with pytest.raises(TypeError, match="IsSubClass"):
        P.IsSubClass()(None, mstype.number)
