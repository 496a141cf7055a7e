"""Training wrappers, as ``mindspore.nn.wrap``."""

from ember.nn.wrap.cell_wrapper import (
    ForwardValueAndGrad,
    ParameterUpdate,
    TrainOneStepCell,
    WithEvalCell,
    WithGradCell,
    WithLossCell,
)
from ember.nn.wrap.grad_reducer import DistributedGradReducer
from ember.nn.wrap.loss_scale import (
    DynamicLossScaleUpdateCell,
    FixedLossScaleUpdateCell,
    TrainOneStepWithLossScaleCell,
)

__all__ = ["DistributedGradReducer", "DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell",
           "ForwardValueAndGrad", "ParameterUpdate", "TrainOneStepCell",
           "TrainOneStepWithLossScaleCell", "WithEvalCell", "WithGradCell", "WithLossCell"]
