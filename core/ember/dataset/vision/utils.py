"""The enums of ``mindspore.dataset.vision``: interpolation, border and batch-format modes."""

from __future__ import annotations

from enum import Enum, IntEnum


class Inter(IntEnum):
    """Interpolation modes of the resizing transforms."""

    NEAREST = 0
    ANTIALIAS = 1
    BILINEAR = LINEAR = 2
    BICUBIC = CUBIC = 3
    AREA = 4
    PILCUBIC = 5


class Border(str, Enum):
    """How padding fills: ``CONSTANT`` a value, ``EDGE`` the edge pixel, ``REFLECT`` a mirror
    without the edge (``dcb|abcd|cba``... as ``numpy.pad``'s "reflect"), ``SYMMETRIC`` a mirror
    with it (``ba|abcd|dc``)."""

    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


class ImageBatchFormat(IntEnum):
    """The layout of a batch of images: ``NHWC`` or ``NCHW``."""

    NHWC = 0
    NCHW = 1
