"""Training: ``Model``, callbacks, checkpoints, mixed precision, loss scaling."""

from ember.train import amp
from ember.train.amp import build_train_network
from ember.train.callback import (
    Callback,
    CheckpointConfig,
    LearningRateScheduler,
    LossMonitor,
    ModelCheckpoint,
    RunContext,
    SummaryCollector,
    TimeMonitor,
)
from ember.train.loss_scale_manager import (
    DynamicLossScaleManager,
    FixedLossScaleManager,
    LossScaleManager,
)
from ember.train.model import Model
from ember.train.serialization import load_checkpoint, load_param_into_net, save_checkpoint

__all__ = ["Callback", "CheckpointConfig", "DynamicLossScaleManager", "FixedLossScaleManager",
           "LearningRateScheduler", "LossMonitor", "LossScaleManager", "Model", "ModelCheckpoint",
           "RunContext", "SummaryCollector", "TimeMonitor", "load_checkpoint",
           "load_param_into_net", "save_checkpoint", "amp", "build_train_network"]
