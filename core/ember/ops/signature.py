"""Input signatures of primitives, as ``mindspore.ops.signature``.

A primitive class may declare ``__mindspore_signature__``: one entry per input, either a
:class:`Signature` made by :func:`make_sig` or a bare :class:`sig_dtype`. Inputs that share a
dtype group (``sig_dtype.T``, ``T1``, ...) are converted to one dtype before the primitive
runs, as MindSpore converts them: Python numbers become tensors, tensors are promoted to the
group's highest dtype; an input marked ``sig_rw.RW_WRITE`` (a Parameter updated in place) is
never converted.
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

from ember.common import dtype as mstype
from ember.common.parameter import Parameter
from ember.common.tensor import Tensor


class sig_rw(enum.IntEnum):  # noqa: N801  (MindSpore's name)
    """How a primitive uses an input: reads its value or writes it in place."""

    RW_READ = 0
    RW_WRITE = 1
    RW_REF = 2
    RW_EMPTY_DEFAULT_VALUE = 3


class sig_kind(enum.IntEnum):  # noqa: N801
    """How an input is passed, as Python parameter kinds."""

    KIND_POSITIONAL_KEYWORD = 0
    KIND_VAR_POSITIONAL = 1
    KIND_KEYWORD_ONLY = 2
    KIND_VAR_KEYWARD = 3
    KIND_EMPTY_DEFAULT_VALUE = 4


class sig_dtype(enum.IntEnum):  # noqa: N801
    """The dtype group of an input; ``T_EMPTY_DEFAULT_VALUE`` is in none."""

    T = 0
    T1 = 1
    T2 = 2
    T3 = 3
    T4 = 4
    T5 = 5
    T6 = 6
    T7 = 7
    T8 = 8
    T9 = 9
    T_EMPTY_DEFAULT_VALUE = 10


class Signature(NamedTuple):
    """One input's signature: name, read/write use, kind, default value and dtype group."""

    name: str
    rw: sig_rw
    kind: sig_kind
    default: Any
    dtype: sig_dtype


def make_sig(name: str = "var", rw: sig_rw = sig_rw.RW_READ,
             kind: sig_kind = sig_kind.KIND_POSITIONAL_KEYWORD,
             default: Any = sig_kind.KIND_EMPTY_DEFAULT_VALUE,
             dtype: sig_dtype = sig_dtype.T_EMPTY_DEFAULT_VALUE) -> Signature:
    """The signature of one input of a primitive."""
    return Signature(name, sig_rw(rw), sig_kind(kind), default, sig_dtype(dtype))


def convert_inputs(op: str, signatures: tuple, args: tuple) -> tuple:
    """``args`` with each dtype group converted to one dtype, as ``signatures`` declares;
    TypeError where a written Parameter would need converting."""
    sigs = [s if isinstance(s, Signature) else make_sig(f"input{i}", dtype=s)
            for i, s in enumerate(signatures)]
    groups: dict[sig_dtype, list[int]] = {}
    for i, sig in enumerate(sigs[:len(args)]):
        if sig.dtype is not sig_dtype.T_EMPTY_DEFAULT_VALUE:
            groups.setdefault(sig.dtype, []).append(i)
    out = list(args)
    for members in groups.values():
        target = _group_dtype([args[i] for i in members])
        if target is None:
            continue
        for i in members:
            value = args[i]
            if isinstance(value, Tensor) and value.dtype is not target:
                if sigs[i].rw is sig_rw.RW_WRITE and isinstance(value, Parameter):
                    raise TypeError(
                        f"{op}: input '{sigs[i].name}' is a Parameter written in place, so its "
                        f"dtype {value.dtype} cannot be converted to {target} (the dtype of "
                        "its group); give the other inputs its dtype")
                out[i] = value.astype(target)
            elif isinstance(value, bool | int | float):
                out[i] = Tensor(value, target)
    return tuple(out)


def _group_dtype(values: list) -> mstype.Type | None:
    """The dtype a group converts to: its tensors' promoted dtype, widened where a Python
    number would lose its kind; None for a group without tensors."""
    dtypes = [v.dtype for v in values if isinstance(v, Tensor)]
    if not dtypes:
        return None
    target = dtypes[0]
    for dtype in dtypes[1:]:
        target = mstype.promote(target, dtype)
    for v in values:
        if isinstance(v, bool | int | float):
            target = mstype.scalar_dtype(v, target)
    return target
