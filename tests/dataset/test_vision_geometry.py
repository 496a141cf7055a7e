"""ember.dataset.vision rotations and affine maps against independent references: NumPy's
``rot90`` for quarter turns, hand-worked bilinear values, Pillow's ``rotate``, and the messages
of MindSpore 1.6's validators."""

from __future__ import annotations

import numpy as np
import pytest

from ember.dataset.vision import Inter
from ember.dataset.vision import c_transforms as C
from ember.dataset.vision import py_transforms as P

Image = pytest.importorskip("PIL.Image")


def _image(h=5, w=7, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)


@pytest.mark.parametrize("mode", [Inter.NEAREST, Inter.LINEAR])
def test_quarter_turns_with_expand_are_rot90(mode):
    image = _image()
    np.testing.assert_array_equal(C.Rotate(90, mode, expand=True)(image), np.rot90(image))
    np.testing.assert_array_equal(C.Rotate(-90, mode, expand=True)(image), np.rot90(image, -1))
    np.testing.assert_array_equal(C.RandomRotation((180, 180), mode)(image),
                                  image[::-1, ::-1])


def test_rotate_fills_outside_and_keeps_the_shape():
    image = np.full((4, 6, 3), 200, np.uint8)
    out = C.Rotate(45, fill_value=7)(image)
    assert out.shape == image.shape and out[0, 0].tolist() == [7, 7, 7]
    assert out[2, 3].tolist() == [200, 200, 200]


def test_affine_shift_and_bilinear_half_pixel():
    image = np.arange(12, dtype=np.uint8).reshape(3, 4) * 20
    shifted = C.RandomAffine(0, translate=(0.25, 0.25, 0, 0), fill_value=9)(image)
    assert shifted[:, 0].tolist() == [9, 9, 9]                 # one column right (0.25 * 4)
    np.testing.assert_array_equal(shifted[:, 1:], image[:, :3])
    # scale 2 about the middle (1.5, 1): output x=1 reads source x=1.25 -> 0.75*a + 0.25*b
    zoom = C.RandomAffine(0, scale=(2, 2), resample=Inter.LINEAR)(image.astype(np.float32))
    assert zoom[1, 1] == pytest.approx(0.75 * image[1, 1] + 0.25 * image[1, 2])


def test_py_rotation_is_pillow_rotate():
    image = Image.fromarray(_image(9, 11))
    out = P.RandomRotation((30, 30), expand=True, fill_value=(1, 2, 3))(image)
    ref = image.rotate(30, Image.Resampling.NEAREST, True, None, fillcolor=(1, 2, 3))
    np.testing.assert_array_equal(np.asarray(out), np.asarray(ref))
    same = P.RandomAffine(degrees=0)(image)
    np.testing.assert_array_equal(np.asarray(same), np.asarray(image))


def test_messages_are_mindspore16s():
    cases = [
        (lambda: P.RandomAffine(-15), ValueError,
         "Input degrees is not within the required interval of [0, 16777216]."),
        (lambda: C.RandomAffine(15, translate=(0.1, 1.5)), ValueError,
         "Input translate at 1 is not within the required interval of [-1.0, 1.0]."),
        (lambda: P.RandomAffine(15, scale=(0.0, 0.0)), ValueError,
         "Input scale[1] must be greater than 0."),
        (lambda: P.RandomAffine(15, shear=(5, 1)), ValueError,
         "Input shear[1] must be equal to or greater than shear[0]"),
        (lambda: P.RandomAffine([15]), TypeError,
         "If degrees is a sequence, the length must be 2."),
        (lambda: P.RandomAffine(15, shear=(-5, 5, 10)), TypeError,
         "shear must be of length 2 or 4."),
        (lambda: C.Rotate(30, Inter.BICUBIC, False, (0, 0, 0)), ValueError,
         "Value center needs to be a 2-tuple."),
        (lambda: C.Rotate(30, Inter.NEAREST, False, (-1, -1), (255, 255)), TypeError,
         "fill_value should be a single integer or a 3-tuple."),
    ]
    for make, kind, message in cases:
        with pytest.raises(kind) as info:
            make()
        assert str(info.value) == message
    with pytest.raises(TypeError, match=r"not of type \[<class 'float'>, <class 'int'>\]"):
        C.Rotate("60")
    with pytest.raises(ValueError, match="Pillow image"):
        P.RandomAffine(15)(np.zeros((3, 3, 3), np.uint8))
