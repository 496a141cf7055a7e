"""Bijectors, as ``mindspore.nn.probability.bijector``: invertible transformations with the
log-determinants of their Jacobians, the building blocks of transformed distributions."""

from .bijector import Bijector
from .exp import Exp
from .gumbel_cdf import GumbelCDF
from .invert import Invert
from .power_transform import PowerTransform
from .scalar_affine import ScalarAffine
from .softplus import Softplus

__all__ = ["Bijector", "Exp", "GumbelCDF", "Invert", "PowerTransform", "ScalarAffine",
           "Softplus"]
