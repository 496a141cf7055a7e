"""NumPy-like interfaces of ember, as ``mindspore.numpy`` (MindSpore 1.6): ``import
ember.numpy as mnp``. Every function takes Tensors (or Python values, converted with 32-bit
defaults), is made of ember primitives, and so runs in PyNative and Graph mode on every backend
and carries gradients.

- ``array_creations``: creating tensors (``array``, ``zeros``, ``arange``, ``eye``, ...)
- ``array_ops``: reshaping, joining, splitting and picking (``reshape``, ``concatenate``, ...)
- ``math_ops``: element-wise math, reductions, products, series (``add``, ``sum``, ``dot``, ...)
- ``logic_ops``: comparisons and logic (``equal``, ``isnan``, ``isclose``, ...)
- ``dtypes``: dtypes and constants (``float32``, ``int_``, ``inf``, ``pi``, ...)
"""

from ember.numpy import array_creations, array_ops, dtypes, logic_ops, math_ops
from ember.numpy.array_creations import *  # noqa: F403
from ember.numpy.array_creations import copy_ as copy  # noqa: F401
from ember.numpy.array_ops import *  # noqa: F403
from ember.numpy.dtypes import *  # noqa: F403
from ember.numpy.dtypes import NINF, PINF, inf, nan, numeric_types, pi  # noqa: F401
from ember.numpy.logic_ops import *  # noqa: F403
from ember.numpy.math_ops import *  # noqa: F403
from ember.numpy.math_ops import absolute, amax, amin, around, divmod_, invert, remainder, sum_

mod = remainder
fabs = abs = absolute  # noqa: A001
round = around  # noqa: A001
divmod = divmod_  # noqa: A001
max = amax  # noqa: A001
min = amin  # noqa: A001
sum = sum_  # noqa: A001
bitwise_not = invert
del divmod_, sum_

__all__ = sorted(
    array_creations.__all__ + ["copy"] + array_ops.__all__
    + [n for n in math_ops.__all__ if n not in ("divmod_", "sum_")]
    + ["mod", "fabs", "abs", "round", "divmod", "max", "min", "sum", "bitwise_not"]
    + logic_ops.__all__ + dtypes.numeric_types
    + ["inf", "nan", "pi", "PINF", "NINF"])
