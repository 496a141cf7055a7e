"""Training callbacks, as ``mindspore.train.callback``."""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Iterable
from typing import Any

import numpy as np

from ember import _parallel
from ember.common import dtype as mstype
from ember.common.parameter import Parameter
from ember.common.tensor import Tensor

__all__ = ["Callback", "CheckpointConfig", "LossMonitor", "ModelCheckpoint", "RunContext",
           "TimeMonitor"]


class CallbackParams(dict):
    """The fields of a run that callbacks read (``cb_params.cur_step_num``), as a dict whose
    keys are also attributes."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"the run context has no field '{name}'; fields: "
                                 f"{', '.join(sorted(self))}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        self[name] = value


class RunContext:
    """What a callback receives: ``original_args()`` gives the run's fields; a callback may
    ``request_stop()`` to end training after the current step."""

    def __init__(self, original_args: CallbackParams) -> None:
        if not isinstance(original_args, dict):
            raise TypeError(f"RunContext: original_args must be a dict, but got "
                            f"{type(original_args).__name__}")
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self) -> CallbackParams:
        return self._original_args

    def request_stop(self) -> None:
        self._stop_requested = True

    def get_stop_requested(self) -> bool:
        return self._stop_requested


class Callback:
    """Base of callbacks: override the moments of the run to act on."""

    def begin(self, run_context: RunContext) -> None:
        """Before the first epoch."""

    def epoch_begin(self, run_context: RunContext) -> None:
        """Before each epoch."""

    def epoch_end(self, run_context: RunContext) -> None:
        """After each epoch."""

    def step_begin(self, run_context: RunContext) -> None:
        """Before each step."""

    def step_end(self, run_context: RunContext) -> None:
        """After each step."""

    def end(self, run_context: RunContext) -> None:
        """After the last epoch."""

    def __enter__(self) -> Callback:
        return self

    def __exit__(self, *err: Any) -> None:
        return None


class CallbackList(Callback):
    """Several callbacks called in order."""

    def __init__(self, callbacks: Iterable[Callback]) -> None:
        self.callbacks = list(callbacks)
        for cb in self.callbacks:
            if not isinstance(cb, Callback):
                raise TypeError(f"callbacks must be Callback instances, but got "
                                f"{type(cb).__name__}")

    def _each(moment: str) -> Any:  # noqa: N805 (a factory used in the class body)
        def call(self: CallbackList, run_context: RunContext) -> None:
            for cb in self.callbacks:
                getattr(cb, moment)(run_context)

        return call

    begin = _each("begin")
    epoch_begin = _each("epoch_begin")
    epoch_end = _each("epoch_end")
    step_begin = _each("step_begin")
    step_end = _each("step_end")
    end = _each("end")
    del _each


def _loss_value(outputs: Any) -> float:
    loss = outputs[0] if isinstance(outputs, tuple | list) else outputs
    if isinstance(loss, Tensor):
        return float(np.mean(loss.asnumpy()))
    return float(loss)


class LossMonitor(Callback):
    """Print the loss every ``per_print_times`` steps: ``epoch: 1 step: 10, loss is 2.30``
    (``rank 1 epoch: 1 ...`` when several processes train together).
    A loss that is NaN or infinite stops training with ValueError."""

    def __init__(self, per_print_times: int = 1) -> None:
        if not isinstance(per_print_times, int) or per_print_times < 0:
            raise ValueError(f"LossMonitor: per_print_times must be an int >= 0, but got "
                             f"{per_print_times!r}")
        self._per_print_times = per_print_times

    def step_end(self, run_context: RunContext) -> None:
        params = run_context.original_args()
        loss = _loss_value(params.net_outputs)
        step = (params.cur_step_num - 1) % params.batch_num + 1
        if not np.isfinite(loss):
            raise ValueError(f"epoch: {params.cur_epoch_num} step: {step}. Invalid loss "
                             f"{loss}, terminating training.")
        if self._per_print_times and params.cur_step_num % self._per_print_times == 0:
            rank = _parallel.rank_label().replace("_", " ")
            print(f"{rank + ' ' if rank else ''}epoch: {params.cur_epoch_num} step: {step}, "
                  f"loss is {loss:.7g}", flush=True)


class TimeMonitor(Callback):
    """Print each epoch's time and the time per step: ``epoch time: 1234.567 ms, per step
    time: 12.346 ms``. ``data_size`` is the number of steps per epoch (default: the run's)."""

    def __init__(self, data_size: int | None = None) -> None:
        if data_size is not None and (not isinstance(data_size, int) or data_size <= 0):
            raise ValueError(f"TimeMonitor: data_size must be a positive int, but got "
                             f"{data_size!r}")
        self.data_size = data_size
        self.epoch_time = 0.0

    def epoch_begin(self, run_context: RunContext) -> None:
        self.epoch_time = time.perf_counter()

    def epoch_end(self, run_context: RunContext) -> None:
        elapsed = (time.perf_counter() - self.epoch_time) * 1000
        steps = self.data_size or run_context.original_args().batch_num
        print(f"epoch time: {elapsed:5.3f} ms, per step time: {elapsed / steps:5.3f} ms",
              flush=True)


class LearningRateScheduler(Callback):
    """Set the optimizer's learning rate to ``learning_rate_function(lr, step)`` after each
    step (the optimizer's learning rate must be a fixed Parameter)."""

    def __init__(self, learning_rate_function: Any) -> None:
        if not callable(learning_rate_function):
            raise TypeError(f"LearningRateScheduler: learning_rate_function must be callable, "
                            f"but got {type(learning_rate_function).__name__}")
        self.learning_rate_function = learning_rate_function

    def step_end(self, run_context: RunContext) -> None:
        params = run_context.original_args()
        optimizer = params.get("optimizer") or getattr(params.get("train_network"),
                                                       "optimizer", None)
        lr = getattr(optimizer, "learning_rate", None)
        if not isinstance(lr, Parameter):
            raise RuntimeError("LearningRateScheduler: the optimizer's learning rate must be a "
                               "fixed value (a Parameter), not a schedule or a list")
        old = float(lr.asnumpy())
        new = self.learning_rate_function(old, params.cur_step_num)
        if new != old:
            if isinstance(new, bool) or not isinstance(new, int | float):
                raise TypeError(f"LearningRateScheduler: learning_rate_function must return a "
                                f"number, but got {new!r}")
            lr.set_data(Tensor(float(new), lr.dtype))


class CheckpointConfig:
    """When ModelCheckpoint saves and how many files it keeps."""

    def __init__(self, save_checkpoint_steps: int = 1, save_checkpoint_seconds: int = 0,
                 keep_checkpoint_max: int = 5, keep_checkpoint_per_n_minutes: int = 0,
                 integrated_save: bool = True, async_save: bool = False,
                 saved_network: Any = None, append_info: list | None = None,
                 enc_key: bytes | None = None, enc_mode: str = "AES-GCM") -> None:
        for name, value in (("save_checkpoint_steps", save_checkpoint_steps),
                            ("save_checkpoint_seconds", save_checkpoint_seconds),
                            ("keep_checkpoint_max", keep_checkpoint_max),
                            ("keep_checkpoint_per_n_minutes", keep_checkpoint_per_n_minutes)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                      or value < 0):
                raise ValueError(f"CheckpointConfig: {name} must be an int >= 0, but got "
                                 f"{value!r}")
        if not save_checkpoint_steps and not save_checkpoint_seconds:
            raise ValueError("CheckpointConfig: save_checkpoint_steps and "
                             "save_checkpoint_seconds cannot both be 0")
        if not keep_checkpoint_max and not keep_checkpoint_per_n_minutes:
            raise ValueError("CheckpointConfig: keep_checkpoint_max and "
                             "keep_checkpoint_per_n_minutes cannot both be 0")
        if enc_key is not None:
            raise ValueError("CheckpointConfig: enc_key is not supported by ember: checkpoints "
                             "are written unencrypted")
        # As MindSpore: a step period overrides the seconds, a file count the minutes (None)
        self.save_checkpoint_steps = save_checkpoint_steps
        self.save_checkpoint_seconds = None if save_checkpoint_steps else save_checkpoint_seconds
        self.keep_checkpoint_max = keep_checkpoint_max
        self.keep_checkpoint_per_n_minutes = (None if keep_checkpoint_max
                                              else keep_checkpoint_per_n_minutes)
        self.integrated_save = integrated_save
        self.async_save = async_save
        self.saved_network = saved_network
        self.append_info = list(append_info or [])
        self.enc_key = enc_key
        self.enc_mode = enc_mode


class ModelCheckpoint(Callback):
    """Save checkpoints ``{prefix}-{epoch}_{step}.ckpt`` in ``directory`` (in its ``rank_<id>``
    subdirectory when several processes train together) as ``config`` says,
    keeping the newest ``keep_checkpoint_max``. A prefix already used there gets ``_1``,
    ``_2``... so earlier runs' files are never overwritten."""

    def __init__(self, prefix: str = "CKP", directory: str | None = None,
                 config: CheckpointConfig | None = None) -> None:
        if not isinstance(prefix, str) or not prefix or os.sep in prefix:
            raise ValueError(f"ModelCheckpoint: prefix must be a non-empty file-name prefix, "
                             f"but got {prefix!r}")
        if config is not None and not isinstance(config, CheckpointConfig):
            raise TypeError(f"ModelCheckpoint: config must be a CheckpointConfig, but got "
                            f"{type(config).__name__}")
        self.directory = os.path.abspath(_parallel.rank_directory(directory or os.getcwd()))
        os.makedirs(self.directory, exist_ok=True)
        self.config = config or CheckpointConfig()
        self.prefix = self._unused_prefix(prefix)
        self.saved: list[str] = []
        self.finite: dict[str, bool] = {}  # whether each saved file's parameters are finite
        self.warned: set[str] = set()  # the kept files a warning named
        self._last_step = 0
        self._last_time = time.time()
        self.latest_ckpt_file_name = ""

    def _unused_prefix(self, prefix: str) -> str:
        taken = {name.rsplit("-", 1)[0] for name in os.listdir(self.directory)
                 if name.endswith(".ckpt")}
        if prefix not in taken:
            return prefix
        n = 1
        while f"{prefix}_{n}" in taken:
            n += 1
        return f"{prefix}_{n}"

    def _due(self, step: int) -> bool:
        steps, seconds = self.config.save_checkpoint_steps, self.config.save_checkpoint_seconds
        if steps:
            return step % steps == 0
        return time.time() - self._last_time >= seconds

    def step_end(self, run_context: RunContext) -> None:
        params = run_context.original_args()
        if self._due(params.cur_step_num):
            self._save(params)

    def end(self, run_context: RunContext) -> None:
        params = run_context.original_args()
        if params.cur_step_num != self._last_step:
            self._save(params)

    def _append_dict(self, params: CallbackParams) -> dict[str, Any]:
        """``append_info`` entries: "epoch_num" and "step_num" (the run's), or dicts."""
        extra: dict[str, Any] = {}
        for item in self.config.append_info:
            if item == "epoch_num":
                extra["epoch_num"] = params.cur_epoch_num
            elif item == "step_num":
                extra["step_num"] = params.cur_step_num
            elif isinstance(item, dict):
                extra.update(item)
            else:
                raise ValueError(f"CheckpointConfig: append_info holds 'epoch_num', "
                                 f"'step_num' or dicts, but got {item!r}")
        return extra

    def _save(self, params: CallbackParams) -> None:
        from ember.train.serialization import save_checkpoint

        step_in_epoch = (params.cur_step_num - 1) % params.batch_num + 1
        name = f"{self.prefix}-{params.cur_epoch_num}_{step_in_epoch}.ckpt"
        path = os.path.join(self.directory, name)
        network = self.config.saved_network or params.train_network
        save_checkpoint(network, path, append_dict=self._append_dict(params) or None)
        self._last_step, self._last_time = params.cur_step_num, time.time()
        self.latest_ckpt_file_name = path
        if path in self.saved:
            self.saved.remove(path)
        self.saved.append(path)
        self.finite[path] = all(np.isfinite(p.asnumpy()).all() for p in network.get_parameters()
                                if p.dtype in mstype.float_type)
        # the newest finite checkpoint is kept whatever keep_checkpoint_max says
        kept = next((p for p in reversed(self.saved) if self.finite[p]), None)
        if kept is not None and not self.finite[path] and kept not in self.warned:
            self.warned.add(kept)
            warnings.warn(f"ModelCheckpoint: {os.path.basename(path)} holds non-finite "
                          f"parameters (NaN or inf); ModelCheckpoint keeps {kept}, the newest "
                          "finite checkpoint, beyond keep_checkpoint_max", UserWarning,
                          stacklevel=2)
        limit = self.config.keep_checkpoint_max
        while limit and len(self.saved) > limit + (kept in self.saved[:-limit]):
            old = next(p for p in self.saved if p != kept)
            self.saved.remove(old)
            del self.finite[old]
            if os.path.exists(old):
                os.remove(old)



class SummaryCollector(Callback):
    """Write to an event file in ``summary_dir`` (see
    :class:`ember.train.summary.SummaryRecord`), at the first training step and then every
    ``collect_freq`` steps: the training loss (tag ``loss/auto``) and what the network's summary
    operators (``ops.ScalarSummary``...) staged; ``TensorSummary`` values are written at the
    steps ``collect_tensor_freq`` picks (by default the ``collect_freq`` steps, at most 20 of
    them). At the end of an evaluation it writes the metrics (``eval/<name>``, at the training
    step reached). The graph, dataset graph, lineage, input data and parameter histograms that
    ``collect_specified_data`` may name are not collected by ember, which a warning says once."""

    _KEYS = ("collect_metric", "collect_graph", "collect_train_lineage",
             "collect_eval_lineage", "collect_input_data", "collect_dataset_graph",
             "histogram_regular")
    _TENSOR_LIMIT = 20  # TensorSummary steps collected by default

    def __init__(self, summary_dir: str, collect_freq: int = 10,
                 collect_specified_data: dict | None = None, keep_default_action: bool = True,
                 custom_lineage_data: dict | None = None, collect_tensor_freq: int | None = None,
                 max_file_size: int | None = None, export_options: Any = None) -> None:
        for name, value in (("collect_freq", collect_freq),
                            ("collect_tensor_freq", 1 if collect_tensor_freq is None
                             else collect_tensor_freq)):
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"SummaryCollector: {name} must be a positive int, but got "
                                 f"{value!r}")
        given = dict(collect_specified_data or {})
        unknown = sorted(set(given) - set(self._KEYS))
        if unknown:
            raise ValueError(f"SummaryCollector: unknown collect_specified_data keys {unknown}; "
                             f"accepted: {list(self._KEYS)}")
        wanted = {k: keep_default_action for k in self._KEYS}
        wanted.update(given)
        self.summary_dir, self.collect_freq = summary_dir, collect_freq
        self.collect_tensor_freq = collect_tensor_freq
        self.collect_metric = bool(wanted["collect_metric"])
        self._unwritten = [k for k, v in wanted.items() if v and k != "collect_metric"]
        self.max_file_size, self.export_options = max_file_size, export_options
        self._record: Any = None
        self._train_step = 0  # eval metrics are recorded at the training step reached
        self._tensor_steps: range | None = None  # the steps TensorSummary values are written

    def _open(self) -> Any:
        if self._record is None:
            from ember.train.summary import SummaryRecord

            if self._unwritten:
                warnings.warn(f"SummaryCollector: ember collects the loss, the metrics and the "
                              f"summary operators' values; {self._unwritten} are not "
                              "collected", stacklevel=3)
            self._record = SummaryRecord(self.summary_dir, max_file_size=self.max_file_size,
                                         export_options=self.export_options)
        return self._record

    def _tensor_range(self, total: int) -> range:
        """The steps (of ``total``) at which TensorSummary values are written."""
        if self.collect_tensor_freq is not None:
            return range(0, total + 1, self.collect_tensor_freq)
        if len(range(0, total + 1, self.collect_freq)) <= self._TENSOR_LIMIT:
            return range(0, total + 1, self.collect_freq)
        freq = total // (self._TENSOR_LIMIT - 1)
        if freq > 1:
            return range(0, total + 1, freq)[:self._TENSOR_LIMIT]
        return range(0, total + 1)[:self._TENSOR_LIMIT + 1]

    def begin(self, run_context: RunContext) -> None:
        self._open()

    def step_end(self, run_context: RunContext) -> None:
        params = run_context.original_args()
        if params.get("mode") == "eval":
            return
        step, first = params.cur_step_num, self._tensor_steps is None
        self._train_step = step
        if first:
            self._tensor_steps = self._tensor_range(params.epoch_num * params.batch_num)
        due, tensors_due = step % self.collect_freq == 0, step in self._tensor_steps
        if not (first or due or tensors_due):
            return
        record = self._open()
        if (first or due) and self.collect_metric:
            loss = _loss_value(params.net_outputs)
            record.add_value("scalar", "loss/auto", Tensor(np.float32(loss)))
        # TensorSummary values only at their steps; the others only at collect_freq steps
        record.record(step, plugin_filter=None if first or (due and tensors_due)
                      else lambda plugin: (plugin == "tensor") == tensors_due)

    def end(self, run_context: RunContext) -> None:
        params = run_context.original_args()
        record = self._open()
        if params.get("mode") == "eval" and self.collect_metric:
            for name, value in (params.get("metrics") or {}).items():
                if np.size(value) == 1:
                    record.add_value("scalar", f"eval/{name}", Tensor(np.float32(value)))
            record.set_mode("eval")  # the operators' values staged while evaluating stay out
            record.record(self._train_step)
            record.set_mode("train")
        record.flush()  # the file stays open for later runs (one file per collector)
