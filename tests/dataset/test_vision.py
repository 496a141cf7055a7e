"""ember.dataset.vision: image transforms against independent references.

References: Pillow (bilinear upscaling, bicubic, ImageEnhance, PNG/JPEG decoding), per-pixel
loops written here from OpenCV's documented resize rules (half-pixel centres, edge repeat,
a = -0.75 cubic, floor nearest), ``numpy.pad`` and plain slicing.
"""

from __future__ import annotations

import colorsys
import io
import math
import sys

import numpy as np
import pytest

import ember.dataset as ds
from ember.dataset.vision import Border, Inter
from ember.dataset.vision import c_transforms as C
from ember.dataset.vision import py_transforms as P

Image = pytest.importorskip("PIL.Image")
ImageEnhance = pytest.importorskip("PIL.ImageEnhance")
ImageOps = pytest.importorskip("PIL.ImageOps")


def _image(h=5, w=7, c=3, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (h, w, c), dtype=np.uint8)


def _encoded(image, fmt):
    buffer = io.BytesIO()
    Image.fromarray(image).save(buffer, format=fmt)
    return np.frombuffer(buffer.getvalue(), np.uint8)


# -- resize ----------------------------------------------------------------------------------
def _taps(mode, d, n_in, n_out):
    """(source index, weight) pairs of destination pixel d, from OpenCV's rules."""
    scale = n_in / n_out
    if mode == Inter.NEAREST:
        return [(min(int(math.floor(d * scale)), n_in - 1), 1.0)]
    src = (d + 0.5) * scale - 0.5
    if mode == Inter.LINEAR:
        src = min(max(src, 0.0), n_in - 1)
        i = int(math.floor(src))
        return [(i, 1 - (src - i)), (min(i + 1, n_in - 1), src - i)]
    i = int(math.floor(src))
    a = -0.75

    def k(t):
        t = abs(t)
        if t <= 1:
            return (a + 2) * t ** 3 - (a + 3) * t ** 2 + 1
        return a * t ** 3 - 5 * a * t ** 2 + 8 * a * t - 4 * a if t < 2 else 0.0
    return [(min(max(j, 0), n_in - 1), k(src - j)) for j in range(i - 1, i + 3)]


def _loop_resize(image, h, w, mode):
    out = np.zeros((h, w) + image.shape[2:])
    for y in range(h):
        for x in range(w):
            for sy, wy in _taps(mode, y, image.shape[0], h):
                for sx, wx in _taps(mode, x, image.shape[1], w):
                    out[y, x] += wy * wx * image[sy, sx]
    return out


@pytest.mark.parametrize("mode", [Inter.NEAREST, Inter.LINEAR, Inter.CUBIC])
@pytest.mark.parametrize("shape", [(3, 11), (9, 4)])
def test_resize_float_matches_opencv_rules(mode, shape):
    image = np.random.default_rng(1).standard_normal((6, 7, 2)).astype(np.float32)
    out = C.Resize(shape, mode)(image)
    assert out.dtype == np.float32 and out.shape == shape + (2,)
    np.testing.assert_allclose(out, _loop_resize(image.astype(np.float64), *shape, mode),
                               rtol=1e-5, atol=1e-5)


def test_resize_uint8_bilinear_upscale_matches_pillow():
    # Upscaling, Pillow's bilinear filter is the half-pixel rule with edge repeat: same values
    # up to the rounding of the two fixed-point implementations.
    image = _image()
    out = C.Resize((13, 17))(image)
    reference = np.asarray(Image.fromarray(image).resize((17, 13), Image.Resampling.BILINEAR))
    assert out.dtype == np.uint8
    assert np.abs(out.astype(int) - reference).max() <= 1


def _fixed_point_bilinear(image, h, w):
    """OpenCV's uint8 INTER_LINEAR, pixel by pixel: 11-bit weights from the float32 fraction,
    an int horizontal pass, then the vertical pass of its SIMD loop."""
    def coefficients(d, n_in, n_out):
        pos = np.float32((d + 0.5) * (1.0 / (n_out / n_in)) - 0.5)
        i = math.floor(pos)
        frac = np.float32(pos - np.float32(i))
        return i, int(np.rint((np.float32(1) - frac) * 2048)), int(np.rint(frac * 2048))

    out = np.zeros((h, w) + image.shape[2:], np.uint8)
    img = image.astype(np.int64)
    for y in range(h):
        sy, b0, b1 = coefficients(y, image.shape[0], h)
        rows = []
        for r in (min(max(sy, 0), image.shape[0] - 1), min(max(sy + 1, 0), image.shape[0] - 1)):
            row = []
            for x in range(w):
                sx, a0, a1 = coefficients(x, image.shape[1], w)
                if sx < 0 or sx >= image.shape[1] - 1:
                    row.append(img[r, min(max(sx, 0), image.shape[1] - 1)] * 2048)
                else:
                    row.append(img[r, sx] * a0 + img[r, sx + 1] * a1)
            rows.append(np.array(row))
        value = ((b0 * (rows[0] >> 4)) >> 16) + ((b1 * (rows[1] >> 4)) >> 16)
        out[y] = np.clip((value + 2) >> 2, 0, 255)
    return out


@pytest.mark.parametrize("shape", [(3, 5), (13, 17), (7, 3), (1, 1)])
def test_resize_uint8_bilinear_is_opencv_fixed_point(shape):
    image = _image(6, 9, seed=3)
    np.testing.assert_array_equal(C.Resize(shape)(image), _fixed_point_bilinear(image, *shape))
    np.testing.assert_array_equal(C.Resize(shape)(image[..., 1]),
                                  _fixed_point_bilinear(image[..., 1], *shape))
    # 2 -> 3 pixels: the middle one is 1 * 1024 after the horizontal pass (weights 1024, 1024),
    # then ((2048 * (1024 >> 4)) >> 16 + 2) >> 2 = 1: the half rounds up (float rint gives 0).
    assert C.Resize((1, 3))(np.array([[0, 1]], np.uint8)).tolist() == [[0, 1, 1]]


def test_resize_area_pilcubic_and_shorter_side():
    image = _image(6, 8)
    blocks = image.reshape(3, 2, 4, 2, 3).astype(np.float64).mean(axis=(1, 3))
    halves = np.floor(blocks + 0.5)  # OpenCV's exact halving rounds half up
    np.testing.assert_array_equal(C.Resize((3, 4), Inter.AREA)(image), halves)
    np.testing.assert_array_equal(C.Resize((3, 4))(image), halves)
    pil = np.asarray(Image.fromarray(image).resize((5, 9), Image.Resampling.BICUBIC))
    np.testing.assert_array_equal(C.Resize((9, 5), Inter.PILCUBIC)(image), pil)
    assert C.Resize(3)(image).shape == (3, 4, 3)         # shorter side 6 -> 3, 8 -> 4
    assert C.Resize([3])(image).shape == (3, 4, 3)
    assert C.Resize(4)(image.transpose(1, 0, 2)).shape == (5, 4, 3)  # int(8 * 4 / 6) = 5
    assert C.Resize((2, 3))(image[..., 0]).shape == (2, 3)


def test_resize_and_crop_arguments_are_checked():
    with pytest.raises(ValueError,
                       match=r"Resize: Input is not within the required interval of \[1, 16"):
        C.Resize(0)
    with pytest.raises(ValueError, match="Inter.ANTIALIAS"):
        C.Resize(2, Inter.ANTIALIAS)
    with pytest.raises(TypeError, match="interpolation must be one of"):
        C.Resize(2, "bilinear")
    with pytest.raises(RuntimeError, match=r"Resize: the input must be an image of shape"):
        C.Resize(2)(np.zeros(4, np.uint8))
    with pytest.raises(ValueError, match="Normalize: Input std is not within"):
        C.Normalize([1, 2, 3], [1, 0, 1])
    with pytest.raises(RuntimeError, match="pad_if_needed=True"):
        C.RandomCrop(9)(_image())


# -- decoding, conversion, normalization -----------------------------------------------------
def test_decode_png_exactly_and_jpeg_as_pillow():
    image = _image()
    np.testing.assert_array_equal(C.Decode()(_encoded(image, "PNG")), image)
    np.testing.assert_array_equal(C.Decode(rgb=False)(_encoded(image, "PNG")), image[..., ::-1])
    jpeg = _encoded(image, "JPEG")
    reference = np.asarray(Image.open(io.BytesIO(jpeg.tobytes())).convert("RGB"))
    np.testing.assert_array_equal(C.Decode()(jpeg), reference)
    grey = C.Decode()(_encoded(image[..., 0], "PNG"))
    np.testing.assert_array_equal(grey, np.repeat(image[..., :1], 3, axis=2))
    with pytest.raises(RuntimeError, match="Decode: cannot decode"):
        C.Decode()(np.arange(20, dtype=np.uint8))
    with pytest.raises(TypeError, match="Input should be an encoded image in 1-D NumPy format"):
        C.Decode()(image)
    with pytest.raises(TypeError, match="Input should be NumPy or PIL image, got str"):
        C.Pad(4)("image.jpg")


def test_missing_pillow_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)
    monkeypatch.setitem(sys.modules, "PIL.Image", None)
    with pytest.raises(ImportError, match=r"ember-core\[vision\]"):
        C.Decode()(np.zeros(8, np.uint8))


def test_rescale_normalize_hwc2chw_formulas():
    image = _image(2, 3)
    np.testing.assert_allclose(C.Rescale(1 / 255, -0.5)(image), image / 255 - 0.5, atol=1e-6)
    assert C.Rescale(2.0, 1.0)(image).dtype == np.float32
    mean, std = [121.0, 115.0, 100.0], [70.0, 68.0, 71.0]
    out = C.Normalize(mean, std)(image)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, (image - np.array(mean)) / np.array(std), rtol=1e-6)
    np.testing.assert_allclose(C.Normalize([10], [2])(image[..., 0]), (image[..., 0] - 10) / 2)
    chw = image.transpose(2, 0, 1)
    np.testing.assert_array_equal(C.Normalize(mean, std, is_hwc=False)(chw),
                                  out.transpose(2, 0, 1))
    with pytest.raises(RuntimeError, match="3 means and stds for an image of 1 channel"):
        C.Normalize(mean, std)(image[..., 0])
    chw = C.HWC2CHW()(image)
    assert chw.shape == (3, 2, 3) and chw.flags.c_contiguous
    np.testing.assert_array_equal(chw[1], image[..., 1])
    np.testing.assert_array_equal(C.HWC2CHW()(image[..., 0]), image[..., 0])
    padded = C.NormalizePad(mean, std, "float16")(image)
    assert padded.dtype == np.float16 and padded.shape == (2, 3, 4)
    assert not padded[..., 3].any()
    np.testing.assert_array_equal(C.Invert()(image), 255 - image)


# -- geometry --------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", list(Border))
def test_pad_matches_numpy_pad(mode):
    image = _image(3, 4)
    out = C.Pad((1, 2, 3, 4), fill_value=(7, 8, 9), padding_mode=mode)(image)
    if mode == Border.CONSTANT:
        reference = np.stack([np.pad(image[..., c], ((2, 4), (1, 3)), constant_values=v)
                              for c, v in enumerate((7, 8, 9))], axis=2)
    else:
        reference = np.pad(image, ((2, 4), (1, 3), (0, 0)), mode=mode.value)
    np.testing.assert_array_equal(out, reference)
    np.testing.assert_array_equal(C.Pad((1, 2))(image),
                                  np.pad(image, ((2, 2), (1, 1), (0, 0))))


def test_center_crop_and_crop_regions():
    image = _image(5, 7)
    np.testing.assert_array_equal(C.CenterCrop((2, 4))(image), image[1:3, 1:5])
    np.testing.assert_array_equal(C.Crop((1, 2), 3)(image), image[1:4, 2:5])
    big = C.CenterCrop((7, 8))(image)   # padded with zeros around, then centred
    np.testing.assert_array_equal(big, np.pad(image, ((1, 1), (1, 0), (0, 0))))
    with pytest.raises(RuntimeError, match="Crop: the region"):
        C.Crop((4, 0), 2)(image)


def _windows(image, h, w):
    return [image[y:y + h, x:x + w] for y in range(image.shape[0] - h + 1)
            for x in range(image.shape[1] - w + 1)]


def test_random_crop_is_a_window_and_follows_the_seed():
    image = _image(6, 6)
    padded = np.pad(image, ((2, 2), (2, 2), (0, 0)), mode="edge")
    ds.config.set_seed(3)
    op = C.RandomCrop((4, 5), padding=2, padding_mode=Border.EDGE)
    crops = [op(image) for _ in range(20)]
    for crop in crops:
        assert any(np.array_equal(crop, window) for window in _windows(padded, 4, 5))
    assert len({crop.tobytes() for crop in crops}) > 1
    ds.config.set_seed(3)
    again = C.RandomCrop((4, 5), padding=2, padding_mode=Border.EDGE)
    assert all(np.array_equal(a, again(image)) for a in crops)
    needed = C.RandomCrop(8, pad_if_needed=True)(image)   # padded by 2 on every side
    assert needed.shape == (8, 8, 3)


def test_random_flips():
    image = _image()
    np.testing.assert_array_equal(C.RandomHorizontalFlip(1.0)(image), image[:, ::-1])
    np.testing.assert_array_equal(C.RandomVerticalFlip(1.0)(image), image[::-1])
    np.testing.assert_array_equal(C.RandomHorizontalFlip(0.0)(image), image)
    ds.config.set_seed(0)
    op = C.RandomHorizontalFlip()
    flipped = [np.array_equal(op(image), image[:, ::-1]) for _ in range(200)]
    assert 60 < sum(flipped) < 140


def test_random_resized_crop():
    image = _image(8, 8)
    whole = C.RandomResizedCrop(4, scale=(1.0, 1.0), ratio=(1.0, 1.0))(image)
    np.testing.assert_array_equal(whole, C.Resize((4, 4), Inter.LINEAR)(image))
    ds.config.set_seed(5)
    outs = [C.RandomResizedCrop((3, 5))(image) for _ in range(2)]
    assert all(o.shape == (3, 5, 3) and o.dtype == np.uint8 for o in outs)
    np.testing.assert_array_equal(*outs)   # the same seed before each op: the same crop
    with pytest.raises(ValueError, match=r"scale must be \(min, max\)"):
        C.RandomResizedCrop(3, scale=(0.9, 0.1))


# -- colour ----------------------------------------------------------------------------------
@pytest.mark.parametrize("name, enhancer", [("brightness", "Brightness"),
                                            ("contrast", "Contrast"), ("saturation", "Color")])
def test_color_adjust_matches_pillow_enhance(name, enhancer):
    image = _image(6, 6)
    op = C.RandomColorAdjust(**{name: (1.4, 1.4)})
    reference = np.asarray(getattr(ImageEnhance, enhancer)(Image.fromarray(image)).enhance(1.4))
    assert np.abs(op(image).astype(int) - reference).max() <= 1


@pytest.mark.parametrize("factor", [0.0, 0.6, 1.8])
def test_sharpness_and_posterize_match_pillow(factor):
    image = _image(6, 7)
    reference = np.asarray(ImageEnhance.Sharpness(Image.fromarray(image)).enhance(factor))
    assert np.abs(C.RandomSharpness((factor, factor))(image).astype(int) - reference).max() <= 1
    pil = P.RandomSharpness((factor, factor))(Image.fromarray(image))
    assert np.abs(np.asarray(pil).astype(int) - reference).max() <= 1
    bits = int(factor * 3) + 2
    np.testing.assert_array_equal(C.RandomPosterize(bits)(image),
                                  np.asarray(ImageOps.posterize(Image.fromarray(image), bits)))


def test_hue_matches_colorsys():
    image = _image(3, 4)
    out = C.RandomColorAdjust(hue=(0.2, 0.2))(image)
    for pixel, got in zip(image.reshape(-1, 3) / 255.0, out.reshape(-1, 3)):
        h, s, v = colorsys.rgb_to_hsv(*pixel)
        want = np.array(colorsys.hsv_to_rgb((h + 0.2) % 1.0, s, v)) * 255
        assert np.abs(got - want).max() <= 0.5 + 1e-6
    with pytest.raises(ValueError, match="Input hue is not within the required interval"):
        C.RandomColorAdjust(hue=0.7)


# -- in pipelines and as Python transforms ---------------------------------------------------
def test_transforms_in_map_equal_eager_calls():
    images = np.stack([_image(seed=s) for s in range(6)])
    ops = [C.Resize((4, 4)), C.Rescale(1 / 255, 0), C.Normalize([0.5] * 3, [0.25] * 3),
           C.HWC2CHW()]
    data = ds.NumpySlicesDataset({"image": images}, shuffle=False)
    data = data.map(operations=ops, input_columns="image", num_parallel_workers=2).batch(3)
    batches = [b[0] for b in data.create_tuple_iterator(output_numpy=True)]
    assert [b.shape for b in batches] == [(3, 3, 4, 4)] * 2
    expected = images
    for op in ops:
        expected = [op(x) for x in expected]
    np.testing.assert_array_equal(np.concatenate(batches), np.stack(expected))


def test_py_transforms_on_pil_images():
    image = _image(6, 8)
    data = ds.NumpySlicesDataset({"image": [_encoded(image, "PNG")]}, shuffle=False)
    ops = [P.Decode(), P.Resize((3, 4)), P.ToTensor(), P.Normalize([0.5] * 3, [0.5] * 3)]
    (out,) = next(data.map(operations=ops).create_tuple_iterator(output_numpy=True))
    resized = np.asarray(Image.fromarray(image).resize((4, 3), Image.Resampling.BILINEAR))
    expected = (resized.transpose(2, 0, 1) / 255.0 - 0.5) / 0.5
    assert out.dtype == np.float32 and out.shape == (3, 3, 4)
    np.testing.assert_allclose(out, expected, atol=1e-6)
    pil = P.ToPIL()(image)
    np.testing.assert_array_equal(C.Resize((3, 4))(pil), C.Resize((3, 4))(image))  # c on PIL
    np.testing.assert_array_equal(np.asarray(P.CenterCrop(2)(pil)), image[2:4, 3:5])
    np.testing.assert_array_equal(np.asarray(P.RandomHorizontalFlip(1.0)(pil)), image[:, ::-1])
    assert P.RandomResizedCrop((2, 3))(pil).size == (3, 2)
    assert np.asarray(P.Grayscale(3)(pil)).shape == (6, 8, 3)
    with pytest.raises(TypeError, match="must be a PIL image"):
        P.Resize(2)(image)
