"""Image transforms on NumPy arrays ``<H, W>`` or ``<H, W, C>``, as
``mindspore.dataset.vision.c_transforms`` (which runs OpenCV in C++): decoding, resizing,
cropping, flipping, padding, colour jitter and normalization. Each is called eagerly on an
array (``Resize((2, 2))(image)``) or given to ``Dataset.map``; random ones draw from a
generator seeded by ``ds.config.set_seed`` when they are created."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import numpy as np

from ember.dataset._checks import check_value, type_check
from ember.dataset.transforms._base import (
    RandomOperation,
    TensorOperation,
    check_number,
    check_prob,
    check_sequence,
)
from ember.dataset.vision import _image
from ember.dataset.vision._augment import RandomSelectSubpolicy, UniformAugment
from ember.dataset.vision._checks import (
    C_MODES,
    check_border,
    check_fill,
    check_interpolation,
    check_padding,
    check_range,
    check_size,
)
from ember.dataset.vision._color import (
    AdjustGamma,
    AutoContrast,
    ConvertColor,
    Equalize,
    RandomAdjustSharpness,
    RandomAutoContrast,
    RandomColor,
    RandomEqualize,
    RandomInvert,
    RandomLighting,
    RandomSolarize,
    RgbToBgr,
)
from ember.dataset.vision._geometry import RandomAffine, RandomRotation, Rotate
from ember.dataset.vision._image import ImageTensorOperation, adjust
from ember.dataset.vision._mix import CutMixBatch, CutOut, MixUpBatch, SlicePatches
from ember.dataset.vision.utils import Border, Inter


# -- decoding and conversion -----------------------------------------------------------------
def decode(data: np.ndarray, where: str) -> Any:
    """A PIL image in RGB from the bytes of an encoded image (a 1-D uint8 array, or bytes)."""
    if data.dtype.kind == "S" and data.ndim == 0:
        data = np.frombuffer(data.item(), np.uint8)
    if data.dtype.kind not in "iu" or data.ndim != 1:
        raise TypeError(f"{where}: Input should be an encoded image in 1-D NumPy format (its "
                        f"bytes, integers), got {data.dtype} of shape {data.shape}")
    pil = _image.import_pil(where)
    try:
        with pil.Image.open(io.BytesIO(data.astype(np.uint8).tobytes())) as image:
            return image.convert("RGB")
    except (pil.UnidentifiedImageError, OSError) as exc:
        raise RuntimeError(f"{where}: cannot decode the image: {exc}") from exc


class Decode(TensorOperation):
    """An encoded image (JPEG, PNG, BMP, ...: a 1-D uint8 array of its bytes) as a uint8
    ``<H, W, 3>`` array, RGB (BGR with ``rgb=False``). Decoded by Pillow."""

    def __init__(self, rgb: bool = True) -> None:
        if not isinstance(rgb, bool):
            raise TypeError(f"Decode: rgb must be a bool, but got {rgb!r}")
        self.rgb = rgb

    def _apply(self, data: np.ndarray) -> np.ndarray:
        image = np.asarray(decode(data, "Decode"))
        return image if self.rgb else image[..., ::-1].copy()


class HWC2CHW(ImageTensorOperation):
    """``<H, W, C>`` transposed to ``<C, H, W>``; an ``<H, W>`` image is returned as it is."""

    def _apply(self, image: np.ndarray) -> np.ndarray:
        if image.ndim not in (2, 3):
            raise RuntimeError(f"HWC2CHW: the input must be <H, W> or <H, W, C>, but got shape "
                               f"{image.shape}")
        return image if image.ndim == 2 else np.ascontiguousarray(image.transpose(2, 0, 1))


class Rescale(ImageTensorOperation):
    """``image * rescale + shift`` as float32."""

    def __init__(self, rescale: float, shift: float) -> None:
        self.rescale = check_number(rescale, "Rescale", "rescale")
        self.shift = check_number(shift, "Rescale", "shift")

    def _apply(self, image: np.ndarray) -> np.ndarray:
        if image.dtype.kind not in "buif":
            raise RuntimeError(f"Rescale: the input must hold numbers, but got {image.dtype}")
        return image.astype(np.float32) * np.float32(self.rescale) + np.float32(self.shift)


class Normalize(ImageTensorOperation):
    """``(image - mean) / std`` per channel of an ``<H, W, C>`` image (``<C, H, W>`` with
    MindSpore 2.x's ``is_hwc=False``), as float32; ``mean`` and ``std`` (one value per channel,
    or one for all) are on the image's scale (0-255 for uint8)."""

    def __init__(self, mean: Sequence[float], std: Sequence[float], is_hwc: bool = True
                 ) -> None:
        where = "Normalize"
        mean = check_sequence(mean, where, "mean", (1, 3))
        std = check_sequence(std, where, "std", (1, 3))
        if len(mean) != len(std):
            raise ValueError(f"{where}: mean and std must have the same length, but got {mean} "
                             f"and {std}")
        for m, s in zip(mean, std):
            check_number(m, where, "mean", 0, 255)
            check_number(s, where, "std", 0, 255, low_open=True)
        if not isinstance(is_hwc, bool):
            raise TypeError(f"{where}: is_hwc must be a bool, but got {is_hwc!r}")
        self.mean, self.std, self.is_hwc = mean, std, is_hwc
        self._mean = np.array(mean, np.float32)
        self._std = np.array(std, np.float32)

    def _apply(self, image: np.ndarray) -> np.ndarray:
        if not self.is_hwc and image.ndim == 3:
            return np.moveaxis(self._apply_hwc(np.moveaxis(image, 0, -1)), -1, 0)
        return self._apply_hwc(image)

    def _apply_hwc(self, image: np.ndarray) -> np.ndarray:
        _image.check_image(image, "Normalize")
        channels = 1 if image.ndim == 2 else image.shape[2]
        if len(self.mean) not in (1, channels):
            raise RuntimeError(f"Normalize: {len(self.mean)} means and stds for an image of "
                               f"{channels} channel(s)")
        mean, std = (self._mean, self._std) if image.ndim == 3 else (self._mean[0], self._std[0])
        return (image.astype(np.float32) - mean) / std


class NormalizePad(Normalize):
    """``Normalize``, then a fourth channel of zeros (``<H, W, 4>``) in ``dtype`` ("float32" or
    "float16")."""

    def __init__(self, mean: Sequence[float], std: Sequence[float], dtype: str = "float32"
                 ) -> None:
        super().__init__(mean, std)
        if dtype not in ("float32", "float16"):
            raise ValueError(f"NormalizePad: dtype must be 'float32' or 'float16', but got "
                             f"{dtype!r}")
        self.dtype = dtype

    def _apply(self, image: np.ndarray) -> np.ndarray:
        out = self._apply_hwc(image)
        out = out[..., None] if out.ndim == 2 else out
        zeros = np.zeros(out.shape[:2] + (1,), np.float32)
        return np.concatenate([out, zeros], axis=2).astype(self.dtype)


class Invert(ImageTensorOperation):
    """``255 - image`` for an ``<H, W, 3>`` image."""

    def _apply(self, image: np.ndarray) -> np.ndarray:
        return _image.invert(image, "Invert")


# -- geometry --------------------------------------------------------------------------------
class Resize(ImageTensorOperation):
    """The image resized to ``size`` (``(height, width)``; an int, or a sequence of one, makes
    the shorter side that long and keeps the aspect ratio) with ``interpolation`` (OpenCV's
    rules, see ``ember.dataset.vision._image``), in the image's dtype."""

    def __init__(self, size: int | Sequence[int], interpolation: Inter = Inter.LINEAR) -> None:
        where = type(self).__name__
        height, width = check_size(size, where)
        self.size = size
        self._shape = (height, width)
        self._shorter = height if isinstance(size, int) or len(size) == 1 else None
        self.interpolation = check_interpolation(interpolation, where, C_MODES)

    def target(self, height: int, width: int) -> tuple[int, int]:
        """The output ``(height, width)`` for an image of ``height x width``."""
        if self._shorter is not None:
            return _image.shorter_side(height, width, self._shorter)
        return self._shape

    def _apply(self, image: np.ndarray) -> np.ndarray:
        _image.check_image(image, type(self).__name__)
        return _image.resize(image, *self.target(*image.shape[:2]), self.interpolation)


class RandomResize(RandomOperation, Resize):
    """``Resize`` with an interpolation drawn for each image from NEAREST, LINEAR, CUBIC and
    AREA."""

    _several = True

    def __init__(self, size: int | Sequence[int]) -> None:
        Resize.__init__(self, size)
        RandomOperation.__init__(self)

    def _apply(self, image: np.ndarray) -> np.ndarray:
        _image.check_image(image, "RandomResize")
        mode = C_MODES[int(self._rng.integers(4))]
        return _image.resize(image, *self.target(*image.shape[:2]), mode)


class Crop(ImageTensorOperation):
    """The region of ``size`` whose top-left corner is ``coordinates`` ``(top, left)``."""

    def __init__(self, coordinates: Sequence[int], size: int | Sequence[int]) -> None:
        type_check(coordinates, (list, tuple), "coordinates", "Crop")
        if len(coordinates) != 2:
            raise TypeError("Crop: Coordinates should be a list/tuple (y, x) of length 2.")
        for i, value in enumerate(coordinates):
            type_check(value, (int,), f"coordinates[{i}]", "Crop")
            check_value(value, 0, 2**31 - 1, f"coordinates[{i}]", "Crop")
        self.coordinates = list(coordinates)
        self.size = check_size(size, "Crop")

    def _apply(self, image: np.ndarray) -> np.ndarray:
        _image.check_image(image, "Crop")
        (top, left), (h, w) = self.coordinates, self.size
        if top + h > image.shape[0] or left + w > image.shape[1]:
            raise RuntimeError(f"Crop: the region at {(top, left)} of size {(h, w)} exceeds the "
                               f"image of shape {image.shape}")
        return _image.crop(image, top, left, h, w)


class CenterCrop(ImageTensorOperation):
    """The centred region of ``size`` (top-left at ``((H - h) // 2, (W - w) // 2)``); an image
    smaller than it is first padded with zeros around (the odd row or column on top or left)."""

    def __init__(self, size: int | Sequence[int]) -> None:
        self.size = check_size(size, "CenterCrop")

    def _apply(self, image: np.ndarray) -> np.ndarray:
        _image.check_image(image, "CenterCrop")
        (h, w), (height, width) = self.size, image.shape[:2]
        pad_h, pad_w = max(h - height, 0), max(w - width, 0)
        if pad_h or pad_w:
            image = _image.pad(image, pad_h - pad_h // 2, pad_h // 2, pad_w - pad_w // 2,
                               pad_w // 2, Border.CONSTANT)
        return _image.crop(image, (image.shape[0] - h) // 2, (image.shape[1] - w) // 2, h, w)


class Pad(ImageTensorOperation):
    """The image padded by ``padding`` (an int for every side, ``(left/right, top/bottom)`` or
    ``(left, top, right, bottom)``), filled as ``padding_mode`` says (``fill_value``, an int or
    one per RGB channel, for ``Border.CONSTANT``)."""

    def __init__(self, padding: int | Sequence[int], fill_value: int | tuple = 0,
                 padding_mode: Border = Border.CONSTANT) -> None:
        self.padding = padding
        self._sides = check_padding(padding, "Pad")
        self.fill_value = check_fill(fill_value, "Pad")
        self.padding_mode = check_border(padding_mode, "Pad")

    def _apply(self, image: np.ndarray) -> np.ndarray:
        _image.check_image(image, "Pad")
        return _image.pad(image, *self._sides, self.padding_mode, self.fill_value)


class RandomCrop(ImageTensorOperation, RandomOperation):
    """A region of ``size`` at a uniformly random position, after padding by ``padding`` (as
    ``Pad``) and, with ``pad_if_needed``, by the missing rows or columns on both sides."""

    _several = True

    def __init__(self, size: int | Sequence[int], padding: int | Sequence[int] | None = None,
                 pad_if_needed: bool = False, fill_value: int | tuple = 0,
                 padding_mode: Border = Border.CONSTANT) -> None:
        super().__init__()
        where = "RandomCrop"
        self.size = check_size(size, where)
        self.padding = padding
        self._sides = (0, 0, 0, 0) if padding is None else check_padding(padding, where)
        if not isinstance(pad_if_needed, bool):
            raise TypeError(f"{where}: pad_if_needed must be a bool, but got {pad_if_needed!r}")
        self.pad_if_needed = pad_if_needed
        self.fill_value = check_fill(fill_value, where)
        self.padding_mode = check_border(padding_mode, where)

    def _apply(self, image: np.ndarray) -> np.ndarray:
        _image.check_image(image, "RandomCrop")
        if any(self._sides):
            image = _image.pad(image, *self._sides, self.padding_mode, self.fill_value)
        (h, w), (height, width) = self.size, image.shape[:2]
        if self.pad_if_needed and (height < h or width < w):
            dh, dw = max(h - height, 0), max(w - width, 0)
            image = _image.pad(image, dh, dh, dw, dw, self.padding_mode, self.fill_value)
            height, width = image.shape[:2]
        if height < h or width < w:
            raise RuntimeError(f"RandomCrop: crop size {(h, w)} is larger than the (padded) "
                               f"image {(height, width)}; pass pad_if_needed=True to pad it")
        top = int(self._rng.integers(height - h + 1))
        left = int(self._rng.integers(width - w + 1))
        return _image.crop(image, top, left, h, w)


class _RandomFlip(ImageTensorOperation, RandomOperation):
    _axis = 1
    _several = True

    def __init__(self, prob: float = 0.5) -> None:
        super().__init__()
        self.prob = check_prob(prob, type(self).__name__)

    def _apply(self, image: np.ndarray) -> np.ndarray:
        _image.check_image(image, type(self).__name__)
        if self._rng.random() < self.prob:
            return np.flip(image, self._axis).copy()
        return image


class RandomHorizontalFlip(_RandomFlip):
    """The image mirrored left to right with probability ``prob``."""


class RandomVerticalFlip(_RandomFlip):
    """The image mirrored top to bottom with probability ``prob``."""

    _axis = 0


class HorizontalFlip(ImageTensorOperation):
    """The image mirrored left to right."""

    def _apply(self, image: np.ndarray) -> np.ndarray:
        _image.check_image(image, "HorizontalFlip")
        return np.flip(image, 1).copy()


class VerticalFlip(ImageTensorOperation):
    """The image mirrored top to bottom."""

    def _apply(self, image: np.ndarray) -> np.ndarray:
        _image.check_image(image, "VerticalFlip")
        return np.flip(image, 0).copy()


class RandomResizedCrop(ImageTensorOperation, RandomOperation):
    """A random region (area fraction in ``scale``, aspect ratio log-uniform in ``ratio``; the
    centred crop after ``max_attempts`` misses) resized to ``size``."""

    _several = True

    def __init__(self, size: int | Sequence[int], scale: Sequence[float] = (0.08, 1.0),
                 ratio: Sequence[float] = (3 / 4, 4 / 3),
                 interpolation: Inter = Inter.BILINEAR, max_attempts: int = 10) -> None:
        super().__init__()
        where = type(self).__name__
        self.size = check_size(size, where)
        self.scale = check_range(scale, where, "scale", 0.0, None, 0.0)
        self.ratio = check_range(ratio, where, "ratio", 0.0, None, 0.0)
        if self.ratio[0] <= 0:
            raise ValueError(f"{where}: ratio must be positive, but got {ratio}")
        self.interpolation = check_interpolation(interpolation, where, C_MODES)
        self.max_attempts = check_number(max_attempts, where, "max_attempts", 1, integer=True)

    def _apply(self, image: np.ndarray) -> np.ndarray:
        _image.check_image(image, type(self).__name__)
        top, left, h, w = _image.random_resized_box(self._rng, *image.shape[:2], self.scale,
                                                    self.ratio, self.max_attempts)
        return _image.resize(image[top:top + h, left:left + w], *self.size, self.interpolation)


class RandomCropDecodeResize(RandomResizedCrop):
    """``Decode`` then ``RandomResizedCrop``, on the bytes of an encoded image."""

    def _apply(self, data: np.ndarray) -> np.ndarray:
        return super()._apply(np.asarray(decode(data, "RandomCropDecodeResize")))


# -- colour ----------------------------------------------------------------------------------
class RandomColorAdjust(ImageTensorOperation, RandomOperation):
    """Brightness, contrast, saturation and hue changed by factors drawn from their ranges, in
    a random order (as MindSpore). Brightness blends with black, contrast with the mean grey
    level, saturation with the grey image (Pillow's ``ImageEnhance`` rules); hue turns the HSV
    hue by a fraction in [-0.5, 0.5]. A number ``v`` means ``[max(0, 1 - v), 1 + v]`` (hue:
    ``[-v, v]``)."""

    def __init__(self, brightness: Any = (1, 1), contrast: Any = (1, 1),
                 saturation: Any = (1, 1), hue: Any = (0, 0)) -> None:
        super().__init__()
        where = "RandomColorAdjust"
        self.brightness = check_range(brightness, where, "brightness", 0.0, None, 1.0)
        self.contrast = check_range(contrast, where, "contrast", 0.0, None, 1.0)
        self.saturation = check_range(saturation, where, "saturation", 0.0, None, 1.0)
        self.hue = check_range(hue, where, "hue", -0.5, 0.5, 0.0)

    def _apply(self, image: np.ndarray) -> np.ndarray:
        _image.check_image(image, "RandomColorAdjust", (3,))
        for k in self._rng.permutation(4):
            name = ("brightness", "contrast", "saturation", "hue")[k]
            low, high = getattr(self, name)
            if low == high == (0.0 if name == "hue" else 1.0):
                continue
            image = adjust(image, name, float(self._rng.uniform(low, high)))
        return image


class RandomSharpness(ImageTensorOperation, RandomOperation):
    """Sharpness changed by a factor drawn from ``degrees``: a blend with the image smoothed by
    the 3x3 kernel ``[[1, 1, 1], [1, 5, 1], [1, 1, 1]] / 13`` (edge pixels kept), so 0 gives the
    smoothed image, 1 the original and 2 a sharper one (Pillow's ``ImageEnhance.Sharpness``)."""

    def __init__(self, degrees: Sequence[float] = (0.1, 1.9)) -> None:
        super().__init__()
        self.degrees = check_range(degrees, "RandomSharpness", "degrees", 0.0, None, 0.0)

    def _apply(self, image: np.ndarray) -> np.ndarray:
        _image.check_image(image, "RandomSharpness")
        return adjust(image, "sharpness", float(self._rng.uniform(*self.degrees)))


class RandomPosterize(ImageTensorOperation, RandomOperation):
    """A uint8 image with each value's low bits cleared, keeping ``b`` bits for ``b`` drawn
    uniformly from the integers in ``bits`` (an int, or ``(min, max)`` within [1, 8])."""

    def __init__(self, bits: int | Sequence[int] = (8, 8)) -> None:
        super().__init__()
        values = [bits] * 2 if isinstance(bits, int) else check_sequence(
            bits, "RandomPosterize", "bits", (2,))
        for value in values:
            check_number(value, "RandomPosterize", "bits", 1, 8, integer=True)
        if values[0] > values[1]:
            raise ValueError(f"RandomPosterize: bits must be (min, max) with min <= max, but got "
                             f"{bits}")
        self.bits = bits
        self._range = values

    def _apply(self, image: np.ndarray) -> np.ndarray:
        _image.check_image(image, "RandomPosterize")
        if image.dtype != np.uint8:
            raise RuntimeError(f"RandomPosterize: the image must be uint8, but got {image.dtype}")
        kept = int(self._rng.integers(self._range[0], self._range[1] + 1))
        return image & np.uint8(256 - (1 << (8 - kept)))


__all__ = ["AdjustGamma", "AutoContrast", "CenterCrop", "ConvertColor", "Crop", "CutMixBatch",
           "CutOut", "Decode", "Equalize", "HWC2CHW", "HorizontalFlip", "Invert", "MixUpBatch",
           "Normalize", "NormalizePad", "Pad", "RandomAdjustSharpness", "RandomAffine",
           "RandomAutoContrast", "RandomColor", "RandomColorAdjust", "RandomCrop",
           "RandomCropDecodeResize", "RandomEqualize", "RandomHorizontalFlip", "RandomInvert",
           "RandomLighting", "RandomPosterize", "RandomResize", "RandomResizedCrop",
           "RandomRotation", "RandomSelectSubpolicy", "RandomSharpness", "RandomSolarize",
           "RandomVerticalFlip", "Rescale", "Resize", "RgbToBgr", "Rotate", "SlicePatches",
           "UniformAugment", "VerticalFlip"]
