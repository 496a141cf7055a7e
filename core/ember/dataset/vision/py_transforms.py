"""Image transforms on PIL images, as ``mindspore.dataset.vision.py_transforms``: ``Decode``
gives a PIL image, the geometric and colour transforms take and return one, ``ToTensor`` makes
the float32 ``<C, H, W>`` array (values / 255) that ``Normalize`` and ``HWC2CHW`` take. Pillow
must be installed (``pip install "ember-core[vision]"``)."""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

import numpy as np

from ember.dataset._checks import type_check
from ember.dataset.transforms._base import (
    TensorOperation,
    _Combinator,
    check_number,
    check_prob,
    check_sequence,
    op_generator,
)
from ember.dataset.vision import _color, _geometry, _image
from ember.dataset.vision import c_transforms as _c
from ember.dataset.vision._augment import check_num_ops
from ember.dataset.vision._checks import check_degrees_range, check_interpolation, check_size
from ember.dataset.vision.utils import Inter

try:  # as MindSpore's module, importing this one loads PIL.Image when Pillow is there
    import PIL.Image  # noqa: F401
except ImportError:  # the transforms that need it say how to install it
    pass


def _pil(what: str):
    return _image.import_pil(f"ember.dataset.vision.py_transforms.{what}").Image


def _check_pil(image: Any, where: str):
    pil = _pil(where)
    if not isinstance(image, pil.Image):
        raise TypeError(f"{where}: the input must be a PIL image (Decode or ToPIL make one), "
                        f"but got {type(image).__name__}")
    return image


class PyTensorOperation(ABC):
    """A Python transform: ``op(image)`` eagerly or in ``Dataset.map`` (a list of them passes
    PIL images from one to the next)."""

    def __call__(self, image: Any) -> Any:
        return self._apply(image)

    @abstractmethod
    def _apply(self, image: Any) -> Any:
        """The transformed image."""


class _OnPIL:
    """A PIL image in, a PIL image out, computed by the matching ``c_transforms`` kernel."""

    def __call__(self, image: Any) -> Any:
        where = type(self).__name__
        array = np.asarray(_check_pil(image, where))
        return _pil(where).fromarray(self._apply(array))


class Decode(PyTensorOperation):
    """The bytes of an encoded image (a 1-D uint8 array) as an RGB PIL image."""

    def _apply(self, data: Any) -> Any:
        return _c.decode(np.asarray(data), "Decode")


class ToPIL(PyTensorOperation):
    """A uint8 ``<H, W>`` or ``<H, W, C>`` array as a PIL image (a PIL image stays as it is)."""

    def _apply(self, image: Any) -> Any:
        pil = _pil("ToPIL")
        if isinstance(image, pil.Image):
            return image
        return pil.fromarray(_image.check_image(np.asarray(image), "ToPIL"))


class ToTensor(PyTensorOperation):
    """A PIL image or an ``<H, W[, C]>`` array as ``<C, H, W>`` of ``output_type`` (float32),
    divided by 255."""

    def __init__(self, output_type: Any = np.float32) -> None:
        self.output_type = np.dtype(output_type)

    def _apply(self, image: Any) -> np.ndarray:
        array = _image.check_image(np.asarray(image), "ToTensor")
        array = array[..., None] if array.ndim == 2 else array
        return np.ascontiguousarray((array.transpose(2, 0, 1) / 255.0).astype(self.output_type))


class ToType(PyTensorOperation):
    """An array cast to the NumPy ``output_type``."""

    def __init__(self, output_type: Any) -> None:
        self.output_type = np.dtype(output_type)

    def _apply(self, image: Any) -> np.ndarray:
        return np.asarray(image).astype(self.output_type)


class HWC2CHW(PyTensorOperation):
    """An ``<H, W, C>`` array as ``<C, H, W>``."""

    def _apply(self, image: Any) -> np.ndarray:
        array = np.asarray(image)
        if array.ndim != 3:
            raise TypeError(f"HWC2CHW: the input must be <H, W, C>, but got shape {array.shape}")
        return np.ascontiguousarray(array.transpose(2, 0, 1))


class Normalize(PyTensorOperation):
    """``(image - mean) / std`` per channel of a ``<C, H, W>`` array (after ``ToTensor``), with
    ``mean`` in [0, 1] and ``std`` in (0, 1], in the image's dtype."""

    def __init__(self, mean: Sequence[float], std: Sequence[float]) -> None:
        mean = check_sequence(mean, "Normalize", "mean", (1, 2, 3, 4))
        std = check_sequence(std, "Normalize", "std", (len(mean),))
        for m, s in zip(mean, std):
            check_number(m, "Normalize", "mean", 0.0, 1.0)
            check_number(s, "Normalize", "std", 0.0, 1.0, low_open=True)
        self.mean, self.std = mean, std

    def _apply(self, image: Any) -> np.ndarray:
        array = np.asarray(image)
        if array.ndim != 3 or array.shape[0] != len(self.mean):
            raise TypeError(f"Normalize: the input must be <C, H, W> with C = {len(self.mean)}, "
                            f"but got shape {array.shape}")
        dtype = array.dtype if array.dtype.kind == "f" else np.float32
        mean = np.array(self.mean, dtype)[:, None, None]
        std = np.array(self.std, dtype)[:, None, None]
        return ((array - mean) / std).astype(dtype)


_PIL_FILTERS = {Inter.NEAREST: "NEAREST", Inter.ANTIALIAS: "LANCZOS", Inter.LINEAR: "BILINEAR",
                Inter.CUBIC: "BICUBIC"}


def _filter(interpolation: Any, where: str):
    mode = check_interpolation(interpolation, where, tuple(_PIL_FILTERS))
    return getattr(_pil(where).Resampling, _PIL_FILTERS[mode])


class Resize(PyTensorOperation):
    """A PIL image resized by Pillow to ``size`` (``(height, width)``, or an int for the shorter
    side keeping the aspect ratio)."""

    def __init__(self, size: int | Sequence[int], interpolation: Inter = Inter.BILINEAR) -> None:
        self._target = _c.Resize(size).target
        self.size, self.interpolation = size, interpolation
        self._resample = _filter(interpolation, "Resize")

    def _apply(self, image: Any) -> Any:
        width, height = _check_pil(image, "Resize").size
        h, w = self._target(height, width)
        return image.resize((w, h), self._resample)


class RandomResizedCrop(PyTensorOperation):
    """A random region (as ``c_transforms.RandomResizedCrop``) resized by Pillow to ``size``."""

    def __init__(self, size: int | Sequence[int], scale: Sequence[float] = (0.08, 1.0),
                 ratio: Sequence[float] = (3 / 4, 4 / 3),
                 interpolation: Inter = Inter.BILINEAR, max_attempts: int = 10) -> None:
        self._rng = op_generator()
        box = _c.RandomResizedCrop(size, scale, ratio, Inter.LINEAR, max_attempts)
        self.size, self.scale, self.ratio = box.size, box.scale, box.ratio
        self.max_attempts, self.interpolation = max_attempts, interpolation
        self._resample = _filter(interpolation, "RandomResizedCrop")

    def _apply(self, image: Any) -> Any:
        width, height = _check_pil(image, "RandomResizedCrop").size
        top, left, h, w = _image.random_resized_box(self._rng, height, width, self.scale,
                                                    self.ratio, self.max_attempts)
        return image.resize((self.size[1], self.size[0]), self._resample,
                            box=(left, top, left + w, top + h))


def _center_box(image: Any, height: int, width: int) -> tuple[int, int, int, int]:
    """The PIL box of the centred ``height x width`` region, 1.6's rounding of the offsets."""
    top = int(round((image.size[1] - height) / 2.0))
    left = int(round((image.size[0] - width) / 2.0))
    return left, top, left + width, top + height


class CenterCrop(PyTensorOperation):
    """The centred region of ``size`` of a PIL image (zeros where it reaches past the image)."""

    def __init__(self, size: int | Sequence[int]) -> None:
        self.size = check_size(size, "CenterCrop")

    def _apply(self, image: Any) -> Any:
        return _check_pil(image, "CenterCrop").crop(_center_box(image, *self.size))


class FiveCrop(PyTensorOperation):
    """The four corner regions and the centred region of ``size`` of a PIL image, as a tuple
    (top-left, top-right, bottom-left, bottom-right, centre)."""

    def __init__(self, size: int | Sequence[int]) -> None:
        self.size = check_size(size, type(self).__name__)

    def _apply(self, image: Any) -> tuple:
        width, height = _check_pil(image, type(self).__name__).size
        h, w = self.size
        if h > height or w > width:
            raise ValueError(f"Crop size {tuple(self.size)} is larger than input image size "
                             f"{(height, width)}.")
        boxes = [(0, 0, w, h), (width - w, 0, width, h), (0, height - h, w, height),
                 (width - w, height - h, width, height), _center_box(image, h, w)]
        return tuple(image.crop(box) for box in boxes)


class TenCrop(FiveCrop):
    """``FiveCrop`` of the image and of its mirror (left-right, or top-bottom with
    ``use_vertical_flip``): ten PIL images."""

    def __init__(self, size: int | Sequence[int], use_vertical_flip: bool = False) -> None:
        super().__init__(size)
        self.use_vertical_flip = type_check(use_vertical_flip, (bool,), "use_vertical_flip",
                                            "TenCrop")

    def _apply(self, image: Any) -> tuple:
        pil = _pil("TenCrop")
        flip = pil.Transpose.FLIP_TOP_BOTTOM if self.use_vertical_flip else (
            pil.Transpose.FLIP_LEFT_RIGHT)
        return super()._apply(image) + super()._apply(image.transpose(flip))


class LinearTransformation(PyTensorOperation):
    """A NumPy image flattened, centred by ``mean_vector`` and multiplied by the square
    ``transformation_matrix`` (as for ZCA whitening), in its shape."""

    def __init__(self, transformation_matrix: np.ndarray, mean_vector: np.ndarray) -> None:
        where = "LinearTransformation"
        type_check(transformation_matrix, (np.ndarray,), "transformation_matrix", where)
        type_check(mean_vector, (np.ndarray,), "mean_vector", where)
        if transformation_matrix.ndim != 2 or (
                transformation_matrix.shape[0] != transformation_matrix.shape[1]):
            raise ValueError(f"transformation_matrix should be a square matrix. Got shape "
                             f"{transformation_matrix.shape} instead")
        if mean_vector.shape[0] != transformation_matrix.shape[0]:
            raise ValueError(f"mean_vector length {mean_vector.shape[0]} should match either one "
                             f"dimension of the square transformation_matrix "
                             f"{transformation_matrix.shape}.")
        self.transformation_matrix, self.mean_vector = transformation_matrix, mean_vector

    def _apply(self, image: Any) -> np.ndarray:
        if not isinstance(image, np.ndarray):
            raise TypeError(f"img should be NumPy array. Got {type(image)}")
        if image.size != self.transformation_matrix.shape[0]:
            raise ValueError(f"transformation_matrix shape {self.transformation_matrix.shape} "
                             f"not compatible with Numpy image shape {image.shape}.")
        centred = image.reshape(1, -1) - self.mean_vector
        return (centred @ self.transformation_matrix).reshape(image.shape)


class RandomRotation(PyTensorOperation):
    """A PIL image turned counter-clockwise by an angle drawn from ``degrees`` (``d`` means
    ``(-d, d)``), by Pillow's ``rotate`` (``expand``, ``center`` and ``fill_value`` as there)."""

    def __init__(self, degrees: Any, resample: Inter = Inter.NEAREST, expand: bool = False,
                 center: tuple | None = None, fill_value: int | tuple = 0) -> None:
        self._rng = op_generator()
        self.degrees = _geometry.check_degrees(degrees)
        self._fill = _geometry.check_rotation(resample, expand, center, fill_value)
        self.resample, self.expand, self.center = resample, expand, center
        self._resample = _filter(resample, "RandomRotation")

    def _apply(self, image: Any) -> Any:
        if not isinstance(image, _pil("RandomRotation").Image):
            raise TypeError(f"img should be PIL image. Got {type(image)}.")
        angle = float(self._rng.uniform(*self.degrees))
        return image.rotate(angle, self._resample, self.expand, self.center,
                            fillcolor=self._fill)


class RandomAffine(PyTensorOperation):
    """A random affine map of a PIL image about its middle (angle, shifts, scale and shears
    drawn as ``c_transforms.RandomAffine``; ``translate`` is ``(x_max, y_max)``), by Pillow's
    ``transform``."""

    def __init__(self, degrees: Any, translate: Any = None, scale: Any = None, shear: Any = None,
                 resample: Inter = Inter.NEAREST, fill_value: int | tuple = 0) -> None:
        self._rng = op_generator()
        self.degrees, self.translate, self.scale, self.shear, self._fill = \
            _geometry.check_affine(degrees, translate, scale, shear, resample, fill_value)
        self._resample = _filter(resample, "RandomAffine")

    def _apply(self, image: Any) -> Any:
        if not isinstance(image, _pil("RandomAffine").Image):
            raise ValueError("Input image should be a Pillow image.")
        draw, (w, h) = self._rng.uniform, image.size
        angle = math.radians(draw(*self.degrees))
        tx, ty = (0.0, 0.0) if self.translate is None else (
            np.round(draw(-self.translate[0] * w, self.translate[0] * w)),
            np.round(draw(-self.translate[1] * h, self.translate[1] * h)))
        scale = 1.0 if self.scale is None else draw(*self.scale)
        shear = (0.0, 0.0) if self.shear is None else (draw(*self.shear[:2]),
                                                        draw(*self.shear[2:]))
        sx, sy = (math.radians(v) for v in shear)
        # the inverse map Pillow wants: C * (R S Sh)^-1 * C^-1 * T^-1, about the middle
        cx, cy = w * 0.5 + 0.5, h * 0.5 + 0.5
        d = math.cos(angle + sx) * math.cos(angle + sy) + math.sin(angle + sx) * math.sin(
            angle + sy)
        m = [v / scale / d for v in (math.cos(angle + sx), math.sin(angle + sx), 0,
                                     -math.sin(angle + sy), math.cos(angle + sy), 0)]
        m[2] = m[0] * (-cx - tx) + m[1] * (-cy - ty) + cx
        m[5] = m[3] * (-cx - tx) + m[4] * (-cy - ty) + cy
        return image.transform((w, h), _pil("RandomAffine").AFFINE, m, self._resample,
                               fillcolor=self._fill)


class Pad(_OnPIL, _c.Pad):
    """``c_transforms.Pad`` on a PIL image."""


class RandomCrop(_OnPIL, _c.RandomCrop):
    """``c_transforms.RandomCrop`` on a PIL image."""


class RandomHorizontalFlip(_OnPIL, _c.RandomHorizontalFlip):
    """``c_transforms.RandomHorizontalFlip`` on a PIL image."""


class RandomVerticalFlip(_OnPIL, _c.RandomVerticalFlip):
    """``c_transforms.RandomVerticalFlip`` on a PIL image."""


class RandomColorAdjust(_OnPIL, _c.RandomColorAdjust):
    """``c_transforms.RandomColorAdjust`` on an RGB PIL image."""


class RandomSharpness(_OnPIL, _c.RandomSharpness):
    """``c_transforms.RandomSharpness`` on a PIL image."""


class _ImageOps(PyTensorOperation):
    """A PIL image through ``PIL.ImageOps.<_name>``."""

    _name = ""
    _kwargs: dict = {}

    def _apply(self, image: Any) -> Any:
        _check_pil(image, type(self).__name__)
        return getattr(_image.import_pil(type(self).__name__).ImageOps, self._name)(
            image, **self._kwargs)


class Invert(_ImageOps):
    """The colours of a PIL image inverted (``PIL.ImageOps.invert``)."""

    _name = "invert"


class Equalize(_ImageOps):
    """The histogram of a PIL image equalized (``PIL.ImageOps.equalize``)."""

    _name = "equalize"


class AutoContrast(_ImageOps):
    """``PIL.ImageOps.autocontrast(image, cutoff, ignore)``, checked as
    ``c_transforms.AutoContrast``."""

    _name = "autocontrast"

    def __init__(self, cutoff: float = 0.0, ignore: int | Sequence[int] | None = None) -> None:
        _c.AutoContrast(cutoff, ignore)
        self.cutoff, self.ignore = cutoff, ignore
        self._kwargs = {"cutoff": cutoff, "ignore": ignore}


class AdjustGamma(PyTensorOperation):
    """Gamma correction of a PIL image by the table ``255.999 * gain * (i / 255) ** gamma``."""

    def __init__(self, gamma: float, gain: float = 1.0) -> None:
        _c.AdjustGamma(gamma, gain)
        self.gamma, self.gain = gamma, gain

    def _apply(self, image: Any) -> Any:
        _check_pil(image, "AdjustGamma")
        table = [(255 + 1 - 1e-3) * self.gain * pow(x / 255.0, self.gamma) for x in range(256)]
        return image.point(table * len(image.getbands()))


class RandomColor(PyTensorOperation):
    """The colour of a PIL image enhanced (``PIL.ImageEnhance.Color``) by a factor drawn from
    ``degrees``."""

    def __init__(self, degrees: Sequence[float] = (0.1, 1.9)) -> None:
        self._rng = op_generator()
        self.degrees = check_degrees_range(degrees, "RandomColor")

    def _apply(self, image: Any) -> Any:
        _check_pil(image, "RandomColor")
        import PIL.ImageEnhance

        return PIL.ImageEnhance.Color(image).enhance(float(self._rng.uniform(*self.degrees)))


class RandomLighting(PyTensorOperation):
    """``c_transforms.RandomLighting`` on an RGB PIL image."""

    def __init__(self, alpha: float = 0.05) -> None:
        self._op = _c.RandomLighting(alpha)
        self.alpha = alpha

    def _apply(self, image: Any) -> Any:
        if _check_pil(image, "RandomLighting").mode != "RGB":
            image = image.convert("RGB")
        return _pil("RandomLighting").fromarray(self._op._apply(np.asarray(image)))


class _ColorSpace(PyTensorOperation):
    """A conversion of 3-channel NumPy images, ``<H, W, C>`` (``is_hwc``) or ``<C, H, W>``,
    alone or in a batch."""

    def __init__(self, is_hwc: bool = False) -> None:
        self.is_hwc = type_check(is_hwc, (bool,), "is_hwc", type(self).__name__)

    def _apply(self, images: Any) -> np.ndarray:
        if not isinstance(images, np.ndarray):
            raise TypeError(f"img should be NumPy image. Got {type(images)}")
        if images.ndim not in (3, 4):
            raise TypeError(f"img shape should be (H, W, C)/(N, H, W, C)/(C ,H, W)/(N, C, H, W). "
                            f"Got {images.shape}.")
        axis = -1 if self.is_hwc else -3
        if images.shape[axis] != 3:
            raise TypeError(f"img should be 3 channels RGB img. Got {images.shape[axis]} "
                            "channels.")
        return np.stack(self._convert(*np.moveaxis(images, axis, 0)), axis=axis)


class RgbToBgr(_ColorSpace):
    """RGB images as BGR."""

    def _convert(self, r: np.ndarray, g: np.ndarray, b: np.ndarray) -> tuple:
        return b, g, r


class RgbToHsv(_ColorSpace):
    """RGB images as HSV (each value as ``colorsys.rgb_to_hsv`` gives it, float64)."""

    def _convert(self, r: np.ndarray, g: np.ndarray, b: np.ndarray) -> tuple:
        return _color.rgb_to_hsv(r, g, b)


class HsvToRgb(_ColorSpace):
    """HSV images as RGB (``colorsys.hsv_to_rgb``, float64)."""

    def _convert(self, h: np.ndarray, s: np.ndarray, v: np.ndarray) -> tuple:
        return _color.hsv_to_rgb(h, s, v)


class Grayscale(PyTensorOperation):
    """A PIL image in grey (Pillow's "L" conversion), with 1 or 3 equal channels."""

    def __init__(self, num_output_channels: int = 1) -> None:
        if num_output_channels not in (1, 3):
            raise ValueError(f"Grayscale: num_output_channels must be 1 or 3, but got "
                             f"{num_output_channels!r}")
        self.num_output_channels = num_output_channels

    def _apply(self, image: Any) -> Any:
        grey = _check_pil(image, type(self).__name__).convert("L")
        return grey if self.num_output_channels == 1 else grey.convert("RGB")


class RandomGrayscale(PyTensorOperation):
    """An image in grey with probability ``prob``, keeping its number of channels."""

    def __init__(self, prob: float = 0.1) -> None:
        self._rng = op_generator()
        self.prob = check_prob(prob, "RandomGrayscale")

    def _apply(self, image: Any) -> Any:
        image = _check_pil(image, "RandomGrayscale")
        if self._rng.random() >= self.prob:
            return image
        return Grayscale(1 if image.mode == "L" else 3)(image)


class UniformAugment(_Combinator):
    """``num_ops`` of the Python ``transforms`` in a random
    order, each run with probability ``p`` for a ``p`` drawn uniformly each time."""

    def __init__(self, transforms: list, num_ops: int = 2) -> None:
        self._rng = op_generator()
        where = "UniformAugment"
        type_check(transforms, (list,), "transforms", where)
        if not transforms:
            raise ValueError(f"{where}: transforms list is empty.")
        for op in transforms:
            if isinstance(op, TensorOperation) or not callable(op):
                raise ValueError(f"{where}: transform list only accepts Python operations.")
        self.num_ops = check_num_ops(num_ops, len(transforms), where)
        self.transforms = list(transforms)

    def _pick(self) -> list:
        picked = self._rng.choice(len(self.transforms), self.num_ops, replace=False)
        return [self.transforms[i] for i in picked if self._rng.random() < self._rng.random()]


__all__ = ["AdjustGamma", "AutoContrast", "CenterCrop", "Decode", "Equalize", "FiveCrop",
           "Grayscale", "HWC2CHW", "HsvToRgb", "Invert", "LinearTransformation", "Normalize",
           "Pad", "RandomAffine", "RandomColor", "RandomColorAdjust", "RandomCrop",
           "RandomGrayscale", "RandomHorizontalFlip", "RandomLighting", "RandomResizedCrop",
           "RandomRotation", "RandomSharpness", "RandomVerticalFlip", "Resize", "RgbToBgr",
           "RgbToHsv", "TenCrop", "ToPIL", "ToTensor", "ToType", "UniformAugment"]
