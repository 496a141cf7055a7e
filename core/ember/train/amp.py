"""Automatic mixed precision: ``build_train_network`` with ``level`` O0, O2 or O3."""

from __future__ import annotations

from typing import Any

from ember.common import dtype as mstype
from ember.nn.cell import Cell

__all__ = ["build_train_network"]


def _levels() -> dict[str, dict[str, Any]]:
    from ember.train.loss_scale_manager import DynamicLossScaleManager

    return {
        "O0": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32,
               "loss_scale_manager": None},
        "O2": {"keep_batchnorm_fp32": True, "cast_model_type": mstype.float16,
               "loss_scale_manager": DynamicLossScaleManager()},
        "O3": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float16,
               "loss_scale_manager": None},
    }


class _CastToFloat32(Cell):
    """``loss_fn(float32(backbone(data)), float32(label))``: the loss in float32."""

    def __init__(self, backbone: Cell, loss_fn: Cell) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data: Any, label: Any) -> Any:
        from ember.ops import functional as F

        def to_fp32(t: Any) -> Any:
            return F.cast(t, mstype.float32) if mstype.is_float(t.dtype) else t

        return self._loss_fn(to_fp32(self._backbone(data)), to_fp32(label))


def build_train_network(network: Cell, optimizer: Any, loss_fn: Cell | None = None,
                        level: str = "O0", boost_level: str = "O0", **kwargs: Any) -> Cell:
    """A training cell for ``network`` at mixed-precision ``level``, as MindSpore builds it.

    O0: float32. O2: the network computes in float16 (float32 master weights; BatchNorm kept
    in float32), the loss in float32, with dynamic loss scaling. O3: everything float16.
    ``keep_batchnorm_fp32`` and ``loss_scale_manager`` override the level's choice.
    """
    from ember.nn.wrap import TrainOneStepCell, WithLossCell
    from ember.nn.wrap.loss_scale import TrainOneStepWithLossScaleCell

    levels = _levels()
    if level not in levels:
        raise ValueError(f"build_train_network: level must be one of {sorted(levels)}, but "
                         f"got {level!r}")
    config = {**levels[level], **kwargs}
    if config["cast_model_type"] is mstype.float16:
        network.to_float(mstype.float16)
        if config["keep_batchnorm_fp32"]:
            from ember.nn.layer.normalization import BatchNorm2d

            for _, cell in network.cells_and_names():
                if isinstance(cell, BatchNorm2d):
                    cell.to_float(mstype.float32)
    if loss_fn is not None:
        network = (_CastToFloat32(network, loss_fn)
                   if config["cast_model_type"] is mstype.float16
                   else WithLossCell(network, loss_fn))
    manager = config["loss_scale_manager"]
    if manager is None:
        return TrainOneStepCell(network, optimizer).set_train()
    update_cell = manager.get_update_cell()
    if update_cell is None:  # a fixed scale that never skips a step
        return TrainOneStepCell(network, optimizer, manager.get_loss_scale()).set_train()
    return TrainOneStepWithLossScaleCell(network, optimizer, scale_sense=update_cell).set_train()
