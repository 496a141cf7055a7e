"""The backward primitives, as ``mindspore.ops.operations._grad_ops`` (imported as ``G``).

Each is defined beside its forward primitive in the module of its kind; this module only
gathers them: every primitive class whose name ends in ``Grad`` or holds ``GradWith`` or
``Backprop``.
"""

from ember.ops.primitive import primitive_classes as _primitive_classes

_BACKWARD = {cls.__name__: cls for cls in _primitive_classes()
             if cls.__name__.endswith("Grad") or "GradWith" in cls.__name__
             or "Backprop" in cls.__name__}
__all__ = sorted(_BACKWARD)
globals().update(_BACKWARD)
