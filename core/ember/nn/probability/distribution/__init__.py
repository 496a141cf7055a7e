"""Probability distributions, as ``mindspore.nn.probability.distribution``: each a Cell whose
functions (prob, cdf, mean, entropy, kl_loss, sample, ...) take the parameters given at
construction or, per call, new ones."""

from .bernoulli import Bernoulli
from .beta import Beta
from .categorical import Categorical
from .cauchy import Cauchy
from .distribution import Distribution
from .exponential import Exponential
from .gamma import Gamma
from .geometric import Geometric
from .gumbel import Gumbel
from .log_normal import LogNormal
from .logistic import Logistic
from .normal import Normal
from .poisson import Poisson
from .transformed_distribution import TransformedDistribution
from .uniform import Uniform

__all__ = ["Bernoulli", "Beta", "Categorical", "Cauchy", "Distribution", "Exponential", "Gamma",
           "Geometric", "Gumbel", "LogNormal", "Logistic", "Normal", "Poisson",
           "TransformedDistribution", "Uniform"]
