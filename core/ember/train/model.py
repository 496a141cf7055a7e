"""``Model``: training, evaluation and prediction of a network, as ``mindspore.Model``."""

from __future__ import annotations

import itertools
import math
import sys
import time
import warnings
from typing import Any

from ember import _parallel, rdr
from ember.common.tensor import Tensor
from ember.context import get_auto_parallel_context
from ember.nn.cell import Cell
from ember.train.amp import build_train_network
from ember.train.callback import Callback, CallbackList, CallbackParams, RunContext

__all__ = ["Model"]


def _progress(total: int, description: str, leave: bool = False) -> Any:
    """A progress bar on a terminal (stderr); nothing when stderr is a file or a pipe."""
    from tqdm import tqdm

    return tqdm(total=total, desc=description, disable=not sys.stderr.isatty(), leave=leave,
                unit="step", file=sys.stderr, dynamic_ncols=True)


def _loss_of(outputs: Any) -> float | None:
    """The loss a training step returned (the first output of a loss-scale cell), if scalar."""
    if isinstance(outputs, (tuple, list)) and outputs:
        outputs = outputs[0]
    if isinstance(outputs, Tensor) and outputs.size == 1:
        return float(outputs.asnumpy().reshape(()))
    return None


def _check_loss(params: CallbackParams) -> bool:
    """Whether the step's loss is finite; warns (once per run) when it is not."""
    loss = _loss_of(params.net_outputs)
    if loss is None or math.isfinite(loss):
        return True
    warnings.warn(f"Model.train: the loss is not finite ({loss}) at epoch "
                  f"{params.cur_epoch_num}, step {params.cur_step_num}: training goes on "
                  "(warned once per run); lower the learning rate, or use a loss scale "
                  "manager with mixed precision", UserWarning, stacklevel=3)
    return False


class _EpochProgress:
    """Keras-like: one line per epoch that stays, with steps, loss and time; a live bar on a
    terminal, a plain line at the end of each epoch otherwise (both on stderr)."""

    def __init__(self, epoch: int, epochs: int, steps: int) -> None:
        self.title, self.steps, self.done = f"epoch {epoch}/{epochs}", steps, 0
        self.bar = _progress(steps, self.title, leave=True)
        self.every = max(1, steps // 20)  # reading the loss may wait for the device
        self.start = time.perf_counter()

    def step(self, outputs: Any) -> None:
        self.done += 1
        self.outputs = outputs
        self.bar.update()
        if not self.bar.disable and self.done % self.every == 0:
            loss = _loss_of(outputs)
            if loss is not None:
                self.bar.set_postfix_str(f"loss {loss:.4f}", refresh=False)

    def close(self) -> None:
        loss = _loss_of(self.outputs) if self.done else None
        shown = f", loss {loss:.4f}" if loss is not None else ""
        if self.bar.disable:
            print(f"{self.title}: {self.done}/{self.steps} steps{shown}, "
                  f"{time.perf_counter() - self.start:.2f} s", file=sys.stderr, flush=True)
        else:
            if loss is not None:
                self.bar.set_postfix_str(f"loss {loss:.4f}", refresh=False)
        self.bar.close()


def _callbacks(callbacks: Any) -> CallbackList:
    if callbacks is None:
        return CallbackList([])
    if isinstance(callbacks, Callback):
        return CallbackList([callbacks])
    return CallbackList(callbacks)


class Model:
    """High-level training and evaluation of ``network``.

    ``Model(network, loss_fn=None, optimizer=None, metrics=None, eval_network=None,
    eval_indexes=None, amp_level="O0", loss_scale_manager=None, keep_batchnorm_fp32=None)``.
    With ``loss_fn`` and ``optimizer`` the training network is built for you (mixed precision
    by ``amp_level``, as ``ember.train.amp.build_train_network``); without them ``network``
    is trained as a complete training cell. ``metrics`` is a dict of name to Metric (or a set
    of metric names).
    """

    def __init__(self, network: Cell, loss_fn: Cell | None = None, optimizer: Any = None,
                 metrics: Any = None, eval_network: Cell | None = None,
                 eval_indexes: list[int] | None = None, amp_level: str = "O0",
                 boost_level: str = "O0", **kwargs: Any) -> None:
        if not isinstance(network, Cell):
            raise TypeError(f"Model: network must be a Cell, but got {type(network).__name__}")
        if eval_indexes is not None and (not isinstance(eval_indexes, list)
                                         or len(eval_indexes) != 3):
            raise ValueError("Model: eval_indexes must be a list of 3 ints (the positions of "
                             f"loss, outputs and label), but got {eval_indexes!r}")
        unknown = set(kwargs) - {"loss_scale_manager", "keep_batchnorm_fp32"}
        if unknown:
            raise ValueError(f"Model: unknown arguments {sorted(unknown)}; accepted: "
                             "loss_scale_manager, keep_batchnorm_fp32")
        if boost_level != "O0":
            raise ValueError(f"Model: boost_level {boost_level!r} is not supported by ember; "
                             "accepted: 'O0'")
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._metrics = self._metric_dict(metrics)
        if loss_fn is not None and optimizer is not None:
            self._train_network = build_train_network(network, optimizer, loss_fn,
                                                      level=amp_level, **kwargs)
        elif optimizer is not None or amp_level != "O0" or kwargs:
            self._train_network = build_train_network(network, optimizer, None,
                                                      level=amp_level, **kwargs)
        else:
            self._train_network = network
        self._eval_network, self._eval_indexes = self._build_eval(eval_network, eval_indexes)

    @staticmethod
    def _metric_dict(metrics: Any) -> dict[str, Any]:
        from ember.nn.metrics import Metric, get_metric_fn

        if metrics is None:
            return {}
        if isinstance(metrics, set):
            return {name: get_metric_fn(name) for name in metrics}
        if not isinstance(metrics, dict):
            raise TypeError(f"Model: metrics must be a dict of name to Metric or a set of "
                            f"metric names (as MindSpore), but got {type(metrics).__name__}")
        for name, metric in metrics.items():
            if not isinstance(metric, Metric):
                raise TypeError(f"Model: metric {name!r} must be an nn.Metric, but got "
                                f"{type(metric).__name__}")
        return dict(metrics)

    def _build_eval(self, eval_network: Cell | None,
                    eval_indexes: list[int] | None) -> tuple[Cell | None, list[int] | None]:
        from ember.nn.wrap import WithEvalCell

        if eval_network is not None:
            return eval_network, eval_indexes
        if not self._metrics:
            return None, None
        if self._loss_fn is None:
            raise ValueError("Model: metrics need a network to evaluate: pass loss_fn (ember "
                             "builds WithEvalCell(network, loss_fn)) or eval_network")
        return WithEvalCell(self._network, self._loss_fn), [0, 1, 2]

    @property
    def train_network(self) -> Cell:
        return self._train_network

    @property
    def predict_network(self) -> Cell:
        return self._network

    @property
    def eval_network(self) -> Cell | None:
        return self._eval_network

    # -- training ---------------------------------------------------------------------------
    def train(self, epoch: int, train_dataset: Any, callbacks: Any = None,
              dataset_sink_mode: bool = True, sink_size: int = -1) -> None:
        """Train for ``epoch`` epochs over ``train_dataset`` (rows of network inputs, label
        last), calling ``callbacks`` at each moment of the run."""
        if not isinstance(epoch, int) or isinstance(epoch, bool) or epoch <= 0:
            raise ValueError(f"Model.train: epoch must be a positive int, but got {epoch!r}")
        if not isinstance(sink_size, int) or sink_size == 0 or sink_size < -1:
            raise ValueError(f"Model.train: sink_size must be -1 or a positive int, but got "
                             f"{sink_size!r}")
        _parallel.check_supported("Model.train")
        self._check_sink(dataset_sink_mode)
        callback = _callbacks(callbacks)
        batch_num = train_dataset.get_dataset_size()
        if batch_num == 0:
            raise ValueError("Model.train: there is no valid data in the dataset (its size is "
                             "0), please check the dataset first")
        params = CallbackParams(
            train_network=self._train_network, epoch_num=epoch, batch_num=batch_num,
            mode="train", loss_fn=self._loss_fn, optimizer=self._optimizer,
            train_dataset=train_dataset, list_callback=callback.callbacks,
            dataset_sink_mode=False, cur_epoch_num=0, cur_step_num=0, net_outputs=None,
            train_dataset_element=None,
            parallel_mode=get_auto_parallel_context("parallel_mode"),
            device_number=get_auto_parallel_context("device_num"))
        context = RunContext(params)
        self._train_network.set_train(True)
        callback.begin(context)
        rows = iter(train_dataset.create_tuple_iterator(num_epochs=epoch))
        finite = True
        for epoch_index in range(1, epoch + 1):
            params.cur_epoch_num = epoch_index
            callback.epoch_begin(context)
            progress = _EpochProgress(epoch_index, epoch, batch_num)
            for data in itertools.islice(rows, batch_num):
                params.cur_step_num += 1
                params.train_dataset_element = data
                callback.step_begin(context)
                try:
                    params.net_outputs = self._train_network(*data)
                except Exception as exc:
                    rdr.fault(exc, inputs=data)
                    raise
                if finite:
                    finite = _check_loss(params)
                callback.step_end(context)
                progress.step(params.net_outputs)
                if context.get_stop_requested():
                    break
            if not progress.done:
                warnings.warn(f"Model.train: epoch {epoch_index} ran no steps: the dataset "
                              "gave no rows", UserWarning, stacklevel=2)
            progress.close()
            callback.epoch_end(context)
            if context.get_stop_requested():
                break
        callback.end(context)

    @staticmethod
    def _check_sink(dataset_sink_mode: bool) -> None:
        """``dataset_sink_mode`` is a bool; True warns that ember does not sink."""
        if not isinstance(dataset_sink_mode, bool):
            raise TypeError(f"Model: dataset_sink_mode must be a bool, but got "
                            f"{dataset_sink_mode!r}")
        if dataset_sink_mode:
            from ember import context

            warnings.warn(
                f"dataset_sink_mode=True: device_target "
                f"{context.get_context('device_target')!r} has no device data queue in ember, "
                "so the data is not sunk: the run goes step by step and callbacks see every "
                "step (as MindSpore does on CPU)", UserWarning, stacklevel=3)

    # -- evaluation and prediction ----------------------------------------------------------
    def eval(self, valid_dataset: Any, callbacks: Any = None,
             dataset_sink_mode: bool = True) -> dict[str, Any]:
        """The metrics over ``valid_dataset``: ``{"Accuracy": 0.98}``."""
        if not self._metrics:
            raise ValueError("Model.eval: the Model has no metrics: pass metrics={'Accuracy': "
                             "nn.Accuracy()} to Model")
        self._check_sink(dataset_sink_mode)
        callback = _callbacks(callbacks)
        batch_num = valid_dataset.get_dataset_size()
        params = CallbackParams(eval_network=self._eval_network, valid_dataset=valid_dataset,
                                batch_num=batch_num, mode="eval", cur_step_num=0,
                                cur_epoch_num=1, net_outputs=None, metrics=None,
                                list_callback=callback.callbacks)
        context = RunContext(params)
        for metric in self._metrics.values():
            metric.clear()
        self._eval_network.set_train(False)
        callback.begin(context)
        with _progress(batch_num, "eval") as bar:
            for data in valid_dataset.create_tuple_iterator(num_epochs=1):
                params.cur_step_num += 1
                callback.step_begin(context)
                outputs = self._eval_network(*data)
                params.net_outputs = outputs
                self._update_metrics(outputs)
                callback.step_end(context)
                bar.update()
        params.metrics = {name: metric.eval() for name, metric in self._metrics.items()}
        callback.end(context)
        return params.metrics

    def _update_metrics(self, outputs: Any) -> None:
        """As MindSpore 1.6: with eval_indexes, Loss metrics get the output at the first and
        the others (output, label) at the second and third; without, every metric gets all
        of the eval network's outputs."""
        from ember.nn.metrics import Loss

        outputs = tuple(outputs) if isinstance(outputs, tuple | list) else (outputs,)
        if self._eval_indexes is None:
            for metric in self._metrics.values():
                metric.update(*outputs)
            return
        if len(outputs) < 3:
            raise ValueError(f"Model.eval: with eval_indexes the eval network must return at "
                             f"least 3 outputs, but it returned {len(outputs)}")
        loss_at, output_at, label_at = self._eval_indexes
        for metric in self._metrics.values():
            if isinstance(metric, Loss):
                metric.update(outputs[loss_at])
            else:
                metric.update(outputs[output_at], outputs[label_at])

    def predict(self, *predict_data: Any) -> Any:
        """The network's output for ``predict_data``, in inference mode."""
        self._network.set_train(False)
        return self._network(*predict_data)
