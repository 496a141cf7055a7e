"""Transforms of any column, as ``mindspore.dataset.transforms``: the modules ``c_transforms``
and ``py_transforms``, and MindSpore 2.x's names (``transforms.TypeCast``, ``transforms.Compose``,
...) for the same transforms."""

from ember.dataset.transforms import c_transforms, py_transforms
from ember.dataset.transforms._base import RandomOrder
from ember.dataset.transforms.c_transforms import (
    Compose,
    Concatenate,
    Duplicate,
    Fill,
    Mask,
    OneHot,
    PadEnd,
    RandomApply,
    RandomChoice,
    Relational,
    Slice,
    TypeCast,
    Unique,
)

__all__ = [
    "Compose", "Concatenate", "Duplicate", "Fill", "Mask", "OneHot", "PadEnd", "RandomApply",
    "RandomChoice", "RandomOrder", "Relational", "Slice", "TypeCast", "Unique", "c_transforms",
    "py_transforms",
]
