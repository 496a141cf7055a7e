"""Cells that wrap a network for training and evaluation: ``WithLossCell``,
``WithEvalCell``, ``WithGradCell``, ``ForwardValueAndGrad``, ``TrainOneStepCell``,
``ParameterUpdate``."""

from __future__ import annotations

from typing import Any

from ember import _parallel
from ember.common import dtype as mstype
from ember.common.parameter import Parameter, ParameterTuple
from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.nn.optim.optimizer import Optimizer
from ember.ops import functional as F
from ember.ops.composite.grad import GradOperation, value_and_grad
from ember.ops.operations.optim_ops import assign


class WithLossCell(Cell):
    """``loss_fn(backbone(data), label)``: a network with its loss."""

    def __init__(self, backbone: Cell, loss_fn: Cell) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data: Tensor, label: Tensor) -> Tensor:
        return self._loss_fn(self._backbone(data), label)

    @property
    def backbone_network(self) -> Cell:
        return self._backbone


class WithEvalCell(Cell):
    """``(loss, outputs, label)`` with ``outputs = network(data)`` and ``loss =
    loss_fn(outputs, label)``: ``WithEvalCell(network, loss_fn, add_cast_fp32=False)``. With
    ``add_cast_fp32`` the outputs and a float label are cast to Float32 first."""

    def __init__(self, network: Cell, loss_fn: Cell, add_cast_fp32: bool = False) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(add_cast_fp32, bool):
            raise TypeError(f"WithEvalCell: add_cast_fp32 must be a bool, but got "
                            f"{add_cast_fp32!r}")
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = add_cast_fp32

    def construct(self, data: Tensor, label: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        outputs = self._network(data)
        if self.add_cast_fp32:
            if mstype.is_float(label.dtype):
                label = F.cast(label, mstype.float32)
            outputs = F.cast(outputs, mstype.float32)
        loss = self._loss_fn(outputs, label)
        return loss, outputs, label


class TrainOneStepCell(Cell):
    """One training step: the loss, its gradients for the optimizer's parameters (scaled by
    ``sens``), and the optimizer's update. Returns the loss.

    Under parallel_mode "data_parallel" or "hybrid_parallel" the gradients are all-reduced
    across the processes by a :class:`DistributedGradReducer` (``grad_reducer``), averaged when
    gradients_mean is set; with parameter_broadcast, rank 0's parameters are broadcast before
    the first step."""

    def __init__(self, network: Cell, optimizer: Optimizer, sens: float = 1.0) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"TrainOneStepCell: optimizer must be an nn.Optimizer, but got "
                            f"{type(optimizer).__name__}")
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = ParameterTuple(optimizer.parameters)
        self.sens = sens
        # 1.6's attributes, which subclasses' construct use: grad, grad_reducer (identity
        # unless gradients are all-reduced), reducer_flag
        self.grad = GradOperation(get_by_list=True, sens_param=True)
        self.reducer_flag = _parallel.data_parallel()
        self.grad_reducer = F.identity
        if self.reducer_flag:
            from ember import context
            from ember.nn.wrap.grad_reducer import DistributedGradReducer

            self.grad_reducer = DistributedGradReducer(
                self.weights, context.get_auto_parallel_context("gradients_mean"),
                context.get_auto_parallel_context("device_num"))
        self._started = False

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not self._started:
            _parallel.check_supported(type(self).__name__)
            if self.reducer_flag:
                _parallel.broadcast_parameters(self)
            self._started = True
        return super().__call__(*args, **kwargs)

    def construct(self, *inputs: Any) -> Tensor:
        loss, _, grads = value_and_grad(self.network, inputs, self.weights, sens=self.sens,
                                        wrt_inputs=False)
        if self.reducer_flag:
            grads = self.grad_reducer(grads)
        self.optimizer(grads)
        return loss


class WithGradCell(Cell):
    """The gradients of ``network`` (with ``loss_fn`` applied to its output when given) with
    respect to its trainable parameters; ``sens`` scales the output's gradient."""

    def __init__(self, network: Cell, loss_fn: Cell | None = None, sens: Any = None) -> None:
        super().__init__(auto_prefix=False)
        self.network = network
        self.loss_fn = loss_fn
        self.weights = ParameterTuple(network.trainable_params())
        self.sens = sens
        self.network_with_loss = network if loss_fn is None else WithLossCell(network, loss_fn)
        self.network_with_loss.set_train()

    def construct(self, *inputs: Any) -> tuple[Tensor, ...]:
        return value_and_grad(self.network_with_loss, inputs, self.weights, sens=self.sens,
                              wrt_inputs=False)[2]


class ForwardValueAndGrad(Cell):
    """``(network(*inputs), gradients)``, the gradients chosen as ``GradOperation`` chooses
    them (``get_all``: every input; ``get_by_list``: ``weights``; ``sens_param``: the last
    input scales the output's gradient)."""

    def __init__(self, network: Cell, weights: Any = None, get_all: bool = False,
                 get_by_list: bool = False, sens_param: bool = False) -> None:
        super().__init__(auto_prefix=False)
        if get_by_list and not isinstance(weights, ParameterTuple):
            raise TypeError(f"ForwardValueAndGrad: with get_by_list, weights must be a "
                            f"ParameterTuple, but got {type(weights).__name__}")
        self.network = network
        self.weights = weights
        self.get_all, self.get_by_list, self.sens_param = get_all, get_by_list, sens_param
        self.grad = GradOperation(get_all, get_by_list, sens_param)

    def construct(self, *inputs: Any) -> tuple[Any, Any]:
        args, sens = (inputs[:-1], inputs[-1]) if self.sens_param else (inputs, None)
        params = list(self.weights) if self.get_by_list else []
        loss, input_grads, param_grads = value_and_grad(self.network, args, params, sens)
        return loss, self.grad.select(input_grads, param_grads)


class ParameterUpdate(Cell):
    """``ParameterUpdate(param)(x)`` assigns ``x`` to ``param`` (same shape and dtype)."""

    def __init__(self, param: Parameter) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(param, Parameter):
            raise TypeError(f"ParameterUpdate: param must be a Parameter, but got "
                            f"{type(param).__name__}")
        self._param = param

    def construct(self, x: Tensor) -> Tensor:
        return assign(self._param, x)
