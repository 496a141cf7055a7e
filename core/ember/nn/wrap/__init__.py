"""Training wrappers, as ``mindspore.nn.wrap``."""

from ember.nn.wrap.cell_wrapper import TrainOneStepCell, WithLossCell

__all__ = ["TrainOneStepCell", "WithLossCell"]
