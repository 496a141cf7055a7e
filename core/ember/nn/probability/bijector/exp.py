"""The Exp bijector."""

from __future__ import annotations

from .power_transform import PowerTransform

__all__ = ["Exp"]


class Exp(PowerTransform):
    """The bijector :math:`y = e^x` (``PowerTransform`` of power 0).

    Args:
        name (str): Default: 'Exp'.

    Examples:
        >>> exp_bijector = msb.Exp()
        >>> exp_bijector.forward(Tensor([1, 2, 3], ember.float32))
        [ 2.7182817  7.389056  20.085537 ]
    """

    def __init__(self, name: str = "Exp") -> None:
        super().__init__(name=name)

    def extend_repr(self) -> str:
        return "exp" if self.is_scalar_batch else f"batch_shape = {self.batch_shape}"
