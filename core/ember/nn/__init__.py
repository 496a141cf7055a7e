"""Neural-network cells, as ``mindspore.nn``."""

from ember.nn import (  # noqa: F401  (probability: nn.probability, as MindSpore exposes it)
    dynamic_lr,
    layer,
    learning_rate_schedule,
    loss,
    metrics,
    optim,
    probability,
    wrap,
)
from ember.nn.cell import Cell
from ember.nn.dynamic_lr import *  # noqa: F403
from ember.nn.grad import Jvp, Vjp
from ember.nn.graph_cell import GraphCell
from ember.nn.layer import *  # noqa: F403
from ember.nn.learning_rate_schedule import *  # noqa: F403
from ember.nn.loss import *  # noqa: F403
from ember.nn.metrics import *  # noqa: F403
from ember.nn.optim import *  # noqa: F403
from ember.nn.sparse import SparseTensorDenseMatmul, SparseToDense
from ember.nn.wrap import *  # noqa: F403

__all__ = ["Cell", "GraphCell", "Jvp", "SparseTensorDenseMatmul", "SparseToDense", "Vjp",
           *dynamic_lr.__all__, *layer.__all__, *learning_rate_schedule.__all__, *loss.__all__,
           *metrics.__all__, *optim.__all__, *wrap.__all__]
