"""Image transforms, as ``mindspore.dataset.vision``: the enums ``Inter``, ``Border`` and
``ImageBatchFormat``, the modules ``c_transforms`` (NumPy arrays) and ``py_transforms`` (PIL
images), and MindSpore 2.x's names (``vision.Resize``, ``vision.ToTensor``, ...) for the same
transforms."""

from ember.dataset.vision import c_transforms, py_transforms
from ember.dataset.vision.c_transforms import (
    HWC2CHW,
    CenterCrop,
    Crop,
    Decode,
    Invert,
    Normalize,
    NormalizePad,
    Pad,
    RandomColorAdjust,
    RandomCrop,
    RandomCropDecodeResize,
    RandomHorizontalFlip,
    RandomPosterize,
    RandomResize,
    RandomResizedCrop,
    RandomSharpness,
    RandomVerticalFlip,
    Rescale,
    Resize,
)
from ember.dataset.vision.py_transforms import Grayscale, RandomGrayscale, ToPIL, ToTensor, ToType
from ember.dataset.vision.utils import Border, ImageBatchFormat, Inter

__all__ = [
    "Border", "CenterCrop", "Crop", "Decode", "Grayscale", "HWC2CHW", "ImageBatchFormat", "Inter",
    "Invert", "Normalize", "NormalizePad", "Pad", "RandomColorAdjust", "RandomCrop",
    "RandomCropDecodeResize", "RandomGrayscale", "RandomHorizontalFlip", "RandomPosterize",
    "RandomResize", "RandomResizedCrop", "RandomSharpness", "RandomVerticalFlip", "Rescale",
    "Resize", "ToPIL", "ToTensor", "ToType", "c_transforms", "py_transforms",
]
