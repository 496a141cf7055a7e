"""Training wrappers, as ``mindspore.nn.wrap``."""

from ember.nn.wrap.cell_wrapper import (
    ForwardValueAndGrad,
    ParameterUpdate,
    TrainOneStepCell,
    WithEvalCell,
    WithGradCell,
    WithLossCell,
)
from ember.nn.wrap.loss_scale import (
    DynamicLossScaleUpdateCell,
    FixedLossScaleUpdateCell,
    TrainOneStepWithLossScaleCell,
)

__all__ = ["DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell", "ForwardValueAndGrad",
           "ParameterUpdate", "TrainOneStepCell", "TrainOneStepWithLossScaleCell",
           "WithEvalCell", "WithGradCell", "WithLossCell"]
