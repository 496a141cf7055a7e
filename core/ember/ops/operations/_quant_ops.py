"""MindSpore 1.6's quantization primitives, as ``mindspore.ops.operations._quant_ops``
(imported as ``Q``). Each is defined once in the module of its kind (``quant_ops``,
``fold_ops``); this module only gathers them."""

from ember.ops.operations.fold_ops import *  # noqa: F403
from ember.ops.operations.fold_ops import __all__ as _fold
from ember.ops.operations.quant_ops import *  # noqa: F403
from ember.ops.operations.quant_ops import __all__ as _quant

__all__ = sorted(_quant + _fold)
