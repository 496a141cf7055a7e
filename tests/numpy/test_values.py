"""ember.numpy against NumPy over a table of cases: values, shapes and dtypes."""

from __future__ import annotations

import numpy as onp
import pytest

import ember.numpy as mnp
from ember import Tensor

RNG = onp.random.default_rng(0)
A = RNG.standard_normal((2, 3)).astype(onp.float32)
B = RNG.standard_normal((3, 4)).astype(onp.float32)
P = (onp.abs(A) + 0.5).astype(onp.float32)
I = onp.arange(12, dtype=onp.int32).reshape(3, 4)  # noqa: E741 (the integer operand)
V = onp.array([1.0, 2.5, -3.0, 4.0], onp.float32)


def _t(x):
    return Tensor(x) if isinstance(x, onp.ndarray) else x


# (name, ember call, NumPy reference); the reference dtype is the MindSpore default (32 bits)
CASES = [
    ("zeros", lambda: mnp.zeros((2, 3)), lambda: onp.zeros((2, 3), onp.float32)),
    ("ones_int", lambda: mnp.ones(3, mnp.int32), lambda: onp.ones(3, onp.int32)),
    ("full", lambda: mnp.full((2, 2), 7), lambda: onp.full((2, 2), 7, onp.int32)),
    ("arange_int", lambda: mnp.arange(5), lambda: onp.arange(5, dtype=onp.int32)),
    ("arange_float", lambda: mnp.arange(0, 1, 0.25), lambda: onp.arange(0, 1, 0.25, onp.float32)),
    ("linspace", lambda: mnp.linspace(0, 2, 5), lambda: onp.linspace(0, 2, 5, dtype=onp.float32)),
    ("logspace", lambda: mnp.logspace(0, 2, 3), lambda: onp.logspace(0, 2, 3, dtype=onp.float32)),
    ("eye", lambda: mnp.eye(3, 4, 1), lambda: onp.eye(3, 4, 1, dtype=onp.float32)),
    ("identity", lambda: mnp.identity(2), lambda: onp.identity(2, onp.float32)),
    ("array_list", lambda: mnp.array([[1, 2], [3, 4]]), lambda: onp.array([[1, 2], [3, 4]],
                                                                          onp.int32)),
    ("asfarray", lambda: mnp.asfarray([1, 2]), lambda: onp.array([1.0, 2.0], onp.float32)),
    ("zeros_like", lambda: mnp.zeros_like(_t(I)), lambda: onp.zeros_like(I)),
    ("full_like", lambda: mnp.full_like(_t(A), 2.0), lambda: onp.full_like(A, 2.0)),
    ("tri", lambda: mnp.tri(3, 4, 1), lambda: onp.tri(3, 4, 1, onp.float32)),
    ("tril", lambda: mnp.tril(_t(I), -1), lambda: onp.tril(I, -1)),
    ("triu", lambda: mnp.triu(_t(I), 1), lambda: onp.triu(I, 1)),
    ("diag_vector", lambda: mnp.diag(_t(V), -1), lambda: onp.diag(V, -1)),
    ("diag_matrix", lambda: mnp.diag(_t(I), 1), lambda: onp.diag(I, 1)),
    ("trace", lambda: mnp.trace(_t(I)), lambda: onp.int32(onp.trace(I))),
    ("meshgrid", lambda: mnp.meshgrid(_t(V), _t(V[:2]))[0], lambda: onp.meshgrid(V, V[:2])[0]),
    ("meshgrid_ij", lambda: mnp.meshgrid(_t(V), _t(V[:2]), indexing="ij")[1],
     lambda: onp.meshgrid(V, V[:2], indexing="ij")[1]),
    ("pad_reflect", lambda: mnp.pad(_t(I), 1, mode="reflect"), lambda: onp.pad(I, 1, "reflect")),
    ("pad_constant", lambda: mnp.pad(_t(I), ((1, 0), (2, 1)), constant_values=5),
     lambda: onp.pad(I, ((1, 0), (2, 1)), constant_values=5)),
    ("hamming", lambda: mnp.hamming(5), lambda: onp.hamming(5).astype(onp.float32)),
    ("reshape", lambda: mnp.reshape(_t(I), (4, -1)), lambda: I.reshape(4, -1)),
    ("ravel", lambda: mnp.ravel(_t(A)), lambda: A.ravel()),
    ("transpose", lambda: mnp.transpose(_t(I)), lambda: I.T),
    ("swapaxes", lambda: mnp.swapaxes(_t(I), 0, 1), lambda: onp.swapaxes(I, 0, 1)),
    ("moveaxis", lambda: mnp.moveaxis(_t(I.reshape(3, 2, 2)), 0, -1),
     lambda: onp.moveaxis(I.reshape(3, 2, 2), 0, -1)),
    ("rollaxis", lambda: mnp.rollaxis(_t(I.reshape(3, 2, 2)), 2), lambda: onp.rollaxis(
        I.reshape(3, 2, 2), 2)),
    ("expand_dims", lambda: mnp.expand_dims(_t(A), (0, 2)), lambda: onp.expand_dims(A, (0, 2))),
    ("squeeze", lambda: mnp.squeeze(_t(A.reshape(1, 2, 1, 3))), lambda: A.reshape(2, 3)),
    ("concatenate", lambda: mnp.concatenate((_t(A), _t(A)), 1), lambda: onp.concatenate(
        (A, A), 1)),
    ("concatenate_none", lambda: mnp.concatenate((_t(A), _t(V)), None),
     lambda: onp.concatenate((A, V), None)),
    ("stack", lambda: mnp.stack((_t(V), _t(V)), 1), lambda: onp.stack((V, V), 1)),
    ("hstack", lambda: mnp.hstack((_t(A), _t(A))), lambda: onp.hstack((A, A))),
    ("vstack", lambda: mnp.vstack((_t(V), _t(V))), lambda: onp.vstack((V, V))),
    ("dstack", lambda: mnp.dstack((_t(A), _t(A))), lambda: onp.dstack((A, A))),
    ("column_stack", lambda: mnp.column_stack((_t(V), _t(V))), lambda: onp.column_stack((V, V))),
    ("atleast_3d", lambda: mnp.atleast_3d(_t(V)), lambda: onp.atleast_3d(V)),
    ("split", lambda: mnp.split(_t(I), [1, 3], 1)[1], lambda: onp.split(I, [1, 3], 1)[1]),
    ("array_split", lambda: mnp.array_split(_t(V), 3)[0], lambda: onp.array_split(V, 3)[0]),
    ("flip", lambda: mnp.flip(_t(I), 1), lambda: onp.flip(I, 1)),
    ("roll", lambda: mnp.roll(_t(I), 2, 1), lambda: onp.roll(I, 2, 1)),
    ("rot90", lambda: mnp.rot90(_t(I), 3), lambda: onp.rot90(I, 3)),
    ("tile", lambda: mnp.tile(_t(V), (2, 2)), lambda: onp.tile(V, (2, 2))),
    ("repeat", lambda: mnp.repeat(_t(I), 2, 0), lambda: onp.repeat(I, 2, 0)),
    ("take", lambda: mnp.take(_t(I), [0, 2], 1), lambda: onp.take(I, [0, 2], 1)),
    ("take_along_axis", lambda: mnp.take_along_axis(_t(I), _t(onp.argsort(-I, 1)), 1),
     lambda: onp.take_along_axis(I, onp.argsort(-I, 1), 1)),
    ("where", lambda: mnp.where(_t(A > 0), _t(A), 0.0), lambda: onp.where(A > 0, A, 0.0)),
    ("broadcast_to", lambda: mnp.broadcast_to(_t(V), (2, 4)), lambda: onp.broadcast_to(V, (2, 4))),
    ("append", lambda: mnp.append(_t(I), _t(I), 0), lambda: onp.append(I, I, 0)),
    ("unique", lambda: mnp.unique(mnp.array([3, 1, 3, 2])), lambda: onp.array([1, 2, 3],
                                                                              onp.int32)),
    ("add", lambda: mnp.add(_t(A), _t(V[:3])), lambda: A + V[:3]),
    ("subtract_scalar", lambda: mnp.subtract(_t(I), 2), lambda: I - 2),
    ("multiply", lambda: mnp.multiply(_t(A), _t(A)), lambda: A * A),
    ("divide_int", lambda: mnp.divide(_t(I), 4), lambda: (I / 4).astype(onp.float32)),
    ("floor_divide", lambda: mnp.floor_divide(_t(I - 5), 3), lambda: (I - 5) // 3),
    ("remainder", lambda: mnp.remainder(_t(I - 5), 3), lambda: onp.remainder(I - 5, 3)),
    ("fmod", lambda: mnp.fmod(_t(I - 5), 3), lambda: onp.fmod(I - 5, 3)),
    ("power", lambda: mnp.power(_t(P), 2.5), lambda: P ** 2.5),
    ("sqrt", lambda: mnp.sqrt(_t(P)), lambda: onp.sqrt(P)),
    ("sqrt_int", lambda: mnp.sqrt(_t(I)), lambda: onp.sqrt(I).astype(onp.float32)),
    ("exp", lambda: mnp.exp(_t(A)), lambda: onp.exp(A)),
    ("log2", lambda: mnp.log2(_t(P)), lambda: onp.log2(P)),
    ("log10", lambda: mnp.log10(_t(P)), lambda: onp.log10(P)),
    ("cbrt", lambda: mnp.cbrt(_t(A)), lambda: onp.cbrt(A)),
    ("absolute", lambda: mnp.absolute(_t(A)), lambda: onp.abs(A)),
    ("negative", lambda: mnp.negative(_t(I)), lambda: -I),
    ("sign", lambda: mnp.sign(_t(A)), lambda: onp.sign(A)),
    ("trunc", lambda: mnp.trunc(_t(A * 3)), lambda: onp.trunc(A * 3)),
    ("arctan2", lambda: mnp.arctan2(_t(A), _t(P)), lambda: onp.arctan2(A, P)),
    ("hypot", lambda: mnp.hypot(_t(A), _t(P)), lambda: onp.hypot(A, P)),
    ("logaddexp", lambda: mnp.logaddexp(_t(A), _t(P)), lambda: onp.logaddexp(A, P)),
    ("heaviside", lambda: mnp.heaviside(_t(A), 0.5), lambda: onp.heaviside(A, 0.5)),
    ("gcd", lambda: mnp.gcd(_t(I), 6), lambda: onp.gcd(I, 6)),
    ("lcm", lambda: mnp.lcm(_t(I + 1), 4), lambda: onp.lcm(I + 1, 4)),
    ("bitwise_xor", lambda: mnp.bitwise_xor(_t(I), 5), lambda: onp.bitwise_xor(I, 5)),
    ("clip", lambda: mnp.clip(_t(A), -0.5, 0.5), lambda: onp.clip(A, -0.5, 0.5)),
    ("maximum", lambda: mnp.maximum(_t(A), 0.0), lambda: onp.maximum(A, 0.0)),
    ("sum", lambda: mnp.sum(_t(I), 1), lambda: I.sum(1, onp.int32)),
    ("sum_keepdims", lambda: mnp.sum(_t(A), (0, 1), keepdims=True), lambda: A.sum((0, 1), None,
                                                                                 None, True)),
    ("mean", lambda: mnp.mean(_t(A), 0), lambda: A.mean(0)),
    ("var", lambda: mnp.var(_t(A), 1, ddof=1), lambda: A.var(1, ddof=1)),
    ("std", lambda: mnp.std(_t(A)), lambda: A.std()),
    ("amax", lambda: mnp.amax(_t(I), 0), lambda: I.max(0)),
    ("amin", lambda: mnp.amin(_t(A)), lambda: A.min()),
    ("ptp", lambda: mnp.ptp(_t(A), 1), lambda: onp.ptp(A, 1)),
    ("argmax", lambda: mnp.argmax(_t(A), 1), lambda: A.argmax(1).astype(onp.int32)),
    ("argmin", lambda: mnp.argmin(_t(A)), lambda: onp.int32(A.argmin())),
    ("cumsum", lambda: mnp.cumsum(_t(I), 1), lambda: I.cumsum(1, onp.int32)),
    ("cumprod", lambda: mnp.cumprod(_t(P), 0), lambda: P.cumprod(0)),
    ("average", lambda: mnp.average(_t(A), 1, _t(V[:3])), lambda: onp.average(A, 1, V[:3])),
    ("nanmean", lambda: mnp.nanmean(mnp.array([1.0, mnp.nan, 3.0])), lambda: onp.float32(2.0)),
    ("count_nonzero", lambda: mnp.count_nonzero(_t(I)), lambda: onp.int32(11)),
    ("dot", lambda: mnp.dot(_t(A), _t(B)), lambda: A @ B),
    ("dot_vectors", lambda: mnp.dot(_t(V), _t(V)), lambda: V @ V),
    ("matmul_batch", lambda: mnp.matmul(_t(onp.stack([A, A])), _t(B)), lambda: onp.stack(
        [A, A]) @ B),
    ("inner", lambda: mnp.inner(_t(A), _t(A)), lambda: onp.inner(A, A)),
    ("outer", lambda: mnp.outer(_t(V), _t(V[:2])), lambda: onp.outer(V, V[:2])),
    ("tensordot", lambda: mnp.tensordot(_t(A), _t(B), 1), lambda: onp.tensordot(A, B, 1)),
    ("kron", lambda: mnp.kron(_t(A), _t(I)), lambda: onp.kron(A, I).astype(onp.float32)),
    ("cross", lambda: mnp.cross(_t(A), _t(P)), lambda: onp.cross(A, P)),
    ("norm", lambda: mnp.norm(_t(A)), lambda: onp.linalg.norm(A)),
    ("diff", lambda: mnp.diff(_t(I), 2, 1), lambda: onp.diff(I, 2, 1)),
    ("convolve", lambda: mnp.convolve(_t(V), _t(V[:2])), lambda: onp.convolve(V, V[:2])),
    ("cov", lambda: mnp.cov(_t(A)), lambda: onp.cov(A).astype(onp.float32)),
    ("polyval", lambda: mnp.polyval(_t(V), _t(A)), lambda: onp.polyval(V, A)),
    ("searchsorted", lambda: mnp.searchsorted(mnp.array([1, 3, 5]), mnp.array([0, 3, 6])),
     lambda: onp.searchsorted([1, 3, 5], [0, 3, 6]).astype(onp.int32)),
    ("equal", lambda: mnp.equal(_t(I), 3), lambda: I == 3),
    ("less", lambda: mnp.less(_t(A), _t(P)), lambda: A < P),
    ("isnan", lambda: mnp.isnan(mnp.array([1.0, mnp.nan])), lambda: onp.array([False, True])),
    ("isinf", lambda: mnp.isinf(mnp.array([mnp.inf, 0.0])), lambda: onp.array([True, False])),
    ("isfinite_int", lambda: mnp.isfinite(_t(I)), lambda: onp.isfinite(I)),
    ("logical_and", lambda: mnp.logical_and(_t(I > 3), _t(I < 8)), lambda: (I > 3) & (I < 8)),
    ("logical_xor", lambda: mnp.logical_xor(_t(I), _t(I > 5)), lambda: onp.logical_xor(I, I > 5)),
    ("isclose", lambda: mnp.isclose(_t(A), _t(A + 1e-7)), lambda: onp.isclose(A, A + 1e-7)),
    ("isin", lambda: mnp.isin(_t(I), [1, 5, 7]), lambda: onp.isin(I, [1, 5, 7])),
    ("array_equal", lambda: mnp.array_equal(_t(I), _t(I.copy())), lambda: onp.bool_(True)),
    ("signbit", lambda: mnp.signbit(_t(A)), lambda: onp.signbit(A)),
]


@pytest.mark.parametrize("name,ours,reference", CASES, ids=[c[0] for c in CASES])
def test_matches_numpy(name, ours, reference):
    out, expected = ours(), onp.asarray(reference())
    assert isinstance(out, Tensor), f"{name} returned {type(out).__name__}"
    assert out.shape == expected.shape, name
    assert out.dtype.np_dtype == expected.dtype, f"{name}: {out.dtype} vs {expected.dtype}"
    onp.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-5, atol=1e-5)


def test_split_gives_a_tuple_for_sections_and_a_list_for_indices():
    """As 1.6, whose programming guide prints ``mnp.split(x, 3)`` as a tuple."""
    pieces = mnp.split(mnp.arange(9, dtype=mnp.int32), 3)
    assert type(pieces) is tuple and [p.asnumpy().tolist() for p in pieces] == [
        [0, 1, 2], [3, 4, 5], [6, 7, 8]]
    assert type(mnp.split(mnp.arange(9), [2, 5])) is list
