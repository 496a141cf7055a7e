"""Dropout2D/3D and DropoutGenMask/DropoutDoMask: what the kit's certain cases and statistics
do not show (whole channels dropped, the mask applied by DoMask, seeded repetition, errors)."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Tensor
from ember.common import dtype as mstype
from ember.common import seed
from ember.ops import operations as P

F32 = mstype.float32


@pytest.fixture
def _own_seed(monkeypatch):
    """Lets a test call set_seed and restores the global seed afterwards."""
    monkeypatch.setattr(seed, "_global_seed", seed._global_seed)
    monkeypatch.setattr(seed, "_generator", seed._generator)


@pytest.mark.parametrize("op, shape", [(P.Dropout2D, (4, 6, 3, 2)),
                                       (P.Dropout3D, (3, 5, 2, 3, 2))])
def test_channel_dropout_keeps_or_drops_whole_channels(op, shape):
    x = np.random.default_rng(0).uniform(1, 2, shape).astype(np.float32)
    out, mask = op(0.5)(Tensor(x))
    m = mask.asnumpy()
    assert mask.dtype == mstype.bool_ and out.dtype == F32 and out.shape == shape
    per_channel = m.reshape(shape[0], shape[1], -1)
    assert (per_channel.all(axis=2) == per_channel.any(axis=2)).all()
    np.testing.assert_allclose(out.asnumpy(), np.where(m, x / 0.5, 0), rtol=1e-6)


def test_dropout2d_docstring_shape():
    output, mask = P.Dropout2D(keep_prob=0.5)(Tensor(np.ones([2, 1, 2, 3]), F32))
    assert output.shape == (2, 1, 2, 3) and mask.shape == (2, 1, 2, 3)


def test_do_mask_applies_the_mask_gen_mask_draws():
    x = np.arange(1, 301, dtype=np.float32).reshape(3, 100)
    mask = P.DropoutGenMask(2, 9)((3, 100), Tensor(np.float32(0.6)))
    assert mask.shape == (48,) and mask.dtype == mstype.uint8  # 300 bits -> 3 blocks of 16
    out = P.DropoutDoMask()(Tensor(x), mask, 0.6).asnumpy()
    kept = out != 0
    assert 0.4 < kept.mean() < 0.8
    np.testing.assert_allclose(out[kept], x[kept] / 0.6, rtol=1e-6)


def test_gen_mask_repeats_under_seeds(_own_seed):
    gen = P.DropoutGenMask(3, 4)
    seed.set_seed(5)
    first, second = (gen((40, 40), 0.5).asnumpy() for _ in range(2))
    assert not np.array_equal(first, second)
    seed.set_seed(5)
    np.testing.assert_array_equal(gen((40, 40), 0.5).asnumpy(), first)
    np.testing.assert_array_equal(P.DropoutGenMask(3, 4)((40, 40), 0.5).asnumpy(), first)


MASK = Tensor(np.zeros(16, np.uint8))
ERRORS = [
    ("keep-type", lambda: P.Dropout2D(1), TypeError, "Dropout2D: 'keep_prob' must be a float"),
    ("keep-range", lambda: P.Dropout3D(1.5), ValueError,
     r"Dropout3D: 'keep_prob' must be in \[0, 1\], but got 1.5"),
    ("rank", lambda: P.Dropout2D()(Tensor(np.ones((2, 3, 4), np.float32))), ValueError,
     r"Dropout2D: x must be 4-d, but got shape \[2, 3, 4\]"),
    ("dtype", lambda: P.Dropout3D()(Tensor(np.ones((1,) * 5, np.bool_))), TypeError,
     "Dropout3D: input 'x' must have dtype in"),
    ("seed", lambda: P.DropoutGenMask(Seed0=1.0), TypeError,
     "DropoutGenMask: 'Seed0' must be an int"),
    ("shape", lambda: P.DropoutGenMask()((2, 0), 0.5), ValueError,
     r"DropoutGenMask: shape must hold positive ints, but got \[2, 0\]"),
    ("keep-tensor", lambda: P.DropoutGenMask()((2,), Tensor(np.ones(2, np.float32))),
     ValueError, r"DropoutGenMask: keep_prob must be a 0-d Tensor, but got shape \[2\]"),
    ("mask-size", lambda: P.DropoutDoMask()(Tensor(np.ones((3, 50), np.float32)), MASK, 0.5),
     ValueError, "DropoutDoMask: mask must be 1-d with a bit for each of the 150 elements"),
    ("mask-dtype", lambda: P.DropoutDoMask()(Tensor(np.ones(4, np.float32)),
                                              Tensor(np.zeros(16, np.int32)), 0.5),
     TypeError, "DropoutDoMask: input 'mask' must have dtype in"),
    ("keep-value", lambda: P.DropoutDoMask()(Tensor(np.ones(4, np.float32)), MASK, 2.0),
     ValueError, r"DropoutDoMask: 'keep_prob' must be in \[0, 1\]"),
]


@pytest.mark.parametrize("call, error, match", [c[1:] for c in ERRORS],
                         ids=[c[0] for c in ERRORS])
def test_errors_name_the_op_and_what_is_accepted(call, error, match):
    with pytest.raises(error, match=match):
        call()
