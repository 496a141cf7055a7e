"""Every key of ``set_context``, ``set_auto_parallel_context`` and ``set_ps_context``, in one table.

Each :class:`Option` says what one key is: its type, its default, the values it accepts, the
device_targets that honour it, whether it is deprecated, and whether it is another key's alias or
view. :mod:`ember.context` derives the public functions, their error messages and their docs from
these tables, so a key is added or changed here and nowhere else. Defaults, ranges and platforms
are MindSpore 1.6's.
"""

from __future__ import annotations

import difflib
import ipaddress
import json
import os
import re
import time
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from itertools import pairwise
from types import MappingProxyType
from typing import Any, NamedTuple

Check = Callable[[str, Any], Any]
"""A value check: gets ``(label, value)`` with value of the option's type; returns the value to
store, or raises ValueError (TypeError for a wrongly typed part) naming ``label``."""

GRAPH_MODE = 0
PYNATIVE_MODE = 1


class ParallelMode:
    """The values of ``parallel_mode``.

    - STAND_ALONE: one device.
    - DATA_PARALLEL: the batch is split across devices.
    - HYBRID_PARALLEL: data and model parallelism written by hand.
    - SEMI_AUTO_PARALLEL: data and model parallelism from the shard strategies set on operators.
    - AUTO_PARALLEL: the strategies are searched automatically.

    MODE_LIST: all five.
    """

    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]


#: The parallel modes that PyNative mode runs.
PYNATIVE_PARALLEL_MODES = (ParallelMode.STAND_ALONE, ParallelMode.DATA_PARALLEL)

ASCEND = ("Ascend",)
GPU_ASCEND = ("GPU", "Ascend")


def type_name(types: type | tuple[type, ...]) -> str:
    """``int``, ``str or tuple``, ``None``: a type as error messages and docs spell it."""
    types = types if isinstance(types, tuple) else (types,)
    return " or ".join("None" if t is type(None) else t.__name__ for t in types)


def unknown_key(where: str, key: str, valid: Iterable[str]) -> ValueError:
    """The error for a key that ``where`` does not have, naming the closest one that it has."""
    valid = list(valid)
    close = difflib.get_close_matches(key, valid, n=1) if isinstance(key, str) else []
    hint = f"did you mean {close[0]!r}?" if close else f"valid keys: {', '.join(valid)}"
    return ValueError(f"{where} has no key {key!r}; {hint}")


@dataclass(frozen=True)
class Option:
    """One key: what it accepts, what it defaults to, where it has an effect."""

    name: str
    type: type | tuple[type, ...]
    default: Any
    doc: str
    check: Check | None = None
    #: The device_targets that honour the key; empty: every one.
    platforms: tuple[str, ...] = ()
    #: Since when or why the key is deprecated, and what to use instead; setting it warns.
    deprecated: str = ""
    #: The key whose value this one sets and reads (aliases and views); empty: its own.
    stores: str = ""
    #: A view's value -> the stored key's value, and back.
    encode: Callable[[Any], Any] | None = None
    decode: Callable[[Any], Any] | None = None
    #: Computes the default when it is first read (after each reset), instead of ``default``.
    default_factory: Callable[[], Any] | None = None
    #: Read-only: read from this environment variable at each read.
    env: str = ""
    #: The value is never shown: not in error messages, not in reprs.
    secret: bool = False

    def validate(self, value: Any, label: str = "") -> Any:
        """The value to store, or TypeError/ValueError that names ``label`` (default: the key)."""
        label = label or self.name
        types = self.type if isinstance(self.type, tuple) else (self.type,)
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            shown = "" if self.secret else f" {value!r}"
            raise TypeError(
                f"{label} must be {type_name(self.type)}, but got {type(value).__name__}{shown}"
            )
        return self.check(label, value) if self.check else value

    def read_env(self) -> Any:
        """The validated value of ``env``, or the default when it is not set."""
        raw = os.environ.get(self.env)
        if raw is None:
            return self.default
        label = f"environment variable {self.env} ({self.name})"
        if self.type is not int:
            return self.validate(raw, label)
        try:
            number = int(raw)
        except ValueError:
            raise ValueError(f"{label} must be an integer, but got {raw!r}") from None
        return self.validate(number, label)


class Alias(NamedTuple):
    """A deprecated name of another key of the same table."""

    name: str
    of: str
    why: str


@dataclass(frozen=True)
class Rule:
    """A constraint between keys, checked when a call sets one of ``keys``.

    ``check`` gets a function from a key (of any of the three tables) to the value it would have
    after the call, and raises ValueError when the combination is not accepted.
    """

    keys: frozenset[str]
    check: Callable[[Callable[[str], Any]], None]


# ---- value checks --------------------------------------------------------------------------


def _within(label: str, number: float, low: float | None, high: float | None, shown: str,
            unit: str = "") -> None:
    if (low is None or number >= low) and (high is None or number <= high):
        return
    if high is None:
        span = f"at least {low}{unit}"
    elif low is None:
        span = f"at most {high}{unit}"
    else:
        span = f"in [{low}{unit}, {high}{unit}]"
    raise ValueError(f"{label} must be {span}, but got {shown}")


def in_range(low: int | None = None, high: int | None = None) -> Check:
    """A number in ``[low, high]``; a missing bound is open."""

    def check(label: str, value: int) -> int:
        _within(label, value, low, high, repr(value))
        return value

    return check


def one_of(*choices: Any) -> Check:
    """One of ``choices``."""

    def check(label: str, value: Any) -> Any:
        if value not in choices:
            close = difflib.get_close_matches(value, choices, n=1) if isinstance(value, str) else []
            hint = f"; did you mean {close[0]!r}?" if close else ""
            listed = ", ".join(map(repr, choices))
            raise ValueError(f"{label} must be one of {listed}, but got {value!r}{hint}")
        return value

    return check


_GB = re.compile(r"(?:[1-9][0-9]*(?:\.[0-9]*)?|0\.[0-9]*)GB")


def memory_size(low_gb: int | None = None, high_gb: int | None = None) -> Check:
    """A positive size in gigabytes written ``"xxGB"`` (``"5GB"``, ``"3.5GB"``)."""

    def check(label: str, value: str) -> str:
        if not _GB.fullmatch(value) or float(value[:-2]) == 0:
            raise ValueError(
                f"{label} must be a positive size in GB such as '5GB' or '3.5GB', "
                f"but got {value!r}"
            )
        _within(label, float(value[:-2]), low_gb, high_gb, repr(value), unit="GB")
        return value

    return check


def all_of(*checks: Check) -> Check:
    """Each of ``checks`` in turn."""

    def check(label: str, value: Any) -> Any:
        for each in checks:
            value = each(label, value)
        return value

    return check


def by_type(checks: Mapping[type, Check]) -> Check:
    """The check registered for the value's type (one of the option's types)."""

    def check(label: str, value: Any) -> Any:
        each = next(each for kind, each in checks.items() if isinstance(value, kind))
        return each(label, value)

    return check


def sequence_of(item: Option) -> Check:
    """A list or tuple whose every element ``item`` accepts; the same kind of sequence back."""

    def check(label: str, value: list[Any] | tuple[Any, ...]) -> list[Any] | tuple[Any, ...]:
        return type(value)(item.validate(each, f"{label}[{i}]") for i, each in enumerate(value))

    return check


def increasing(label: str, value: list[int]) -> list[int]:
    """Strictly increasing numbers."""
    if any(b <= a for a, b in pairwise(value)):
        raise ValueError(f"{label} must be in increasing order, but got {value!r}")
    return value


def fields(*options: Option) -> Check:
    """A dict whose keys are some of ``options``' names, each value accepted by its option."""
    table = {option.name: option for option in options}

    def check(label: str, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise TypeError(f"{label} must be dict, but got {type(value).__name__} {value!r}")
        for key in value:
            if key not in table:
                raise unknown_key(label, key, table)
        return {key: table[key].validate(item, f"{label}[{key!r}]") for key, item in value.items()}

    return check


def defaults(*options: Option) -> dict[str, Any]:
    """The dict of the defaults of ``options``, by name."""
    return {option.name: option.default for option in options}


def directory(label: str, value: str) -> str:
    """A non-empty path that is a directory or does not exist yet."""
    if not value.strip() or "\0" in value:
        raise ValueError(f"{label} must be a non-empty path without NUL, but got {value!r}")
    if os.path.exists(value) and not os.path.isdir(value):
        raise ValueError(f"{label} must be a directory, but {value!r} is a file")
    return value


def created_directory(label: str, value: str) -> str:
    """A directory, created (with its parents) when it does not exist yet."""
    directory(label, value)
    try:
        os.makedirs(value, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"{label}: the directory {value!r} cannot be created "
                         f"({exc.strerror or exc})") from None
    return value


def user_cache_directory() -> str:
    """The per-user cache directory of ember: ``$XDG_CACHE_HOME/ember``, else
    ``~/.cache/ember`` (``%LOCALAPPDATA%\\ember\\cache`` on Windows)."""
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        return os.path.join(os.environ["LOCALAPPDATA"], "ember", "cache")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "ember")


def file_path(label: str, value: str) -> str:
    """A path that is not a directory; empty: not set."""
    if value and os.path.isdir(value):
        raise ValueError(f"{label} must be a file path, but {value!r} is a directory")
    return value


def timestamped(path: str) -> str:
    """``path``, or ``path.<seconds since the epoch>`` when a file is there (MindSpore's rule for
    print_file_path)."""
    return f"{path}.{int(time.time())}" if path and os.path.exists(path) else path


def absolute_path(label: str, value: str) -> str:
    """An absolute path."""
    if not os.path.isabs(value):
        raise ValueError(f"{label} must be an absolute path, but got {value!r}")
    return value


def _json(label: str, text: str, shown: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{label} must be valid JSON, but {shown} is not: {exc}") from None


def json_text(schema: Check) -> Check:
    """A JSON text that ``schema`` accepts once parsed; empty: not set."""

    def check(label: str, value: str) -> str:
        if value:
            schema(label, _json(label, value, repr(value)))
        return value

    return check


def json_file(schema: Check) -> Check:
    """The path of a JSON file whose content ``schema`` accepts; empty: not set."""

    def check(label: str, value: str) -> str:
        if value:
            if not os.path.isfile(value):
                raise ValueError(f"{label} must be the path of a JSON file, but got {value!r}")
            with open(value, encoding="utf-8") as file:
                content = _json(label, file.read(), f"the file {value!r}")
            schema(f"{label} file {value!r}", content)
        return value

    return check


def graph_kernel_flag_list(label: str, value: str) -> str:
    """Space-separated ``--name`` or ``--name=value`` flags."""
    for token in value.split():
        if not re.fullmatch(r"--[A-Za-z_]\w*(=\S+)?", token):
            raise ValueError(
                f"{label} must be flags such as '--opt_level=2 --dump_as_text', "
                f"but {token!r} is not a flag"
            )
    return value


def ip_address(label: str, value: str) -> str:
    """An IPv4 or IPv6 address."""
    try:
        ipaddress.ip_address(value)
    except ValueError:
        raise ValueError(
            f"{label} must be an IP address such as 127.0.0.1, but got {value!r}"
        ) from None
    return value


def installed_backend(label: str, value: str) -> str:
    """A device_target whose backend is installed and usable here."""
    from ember import _plugins

    _plugins.check_device_target(value)
    return value


def optional(check: Check) -> Check:
    """``check``, or the empty string meaning "not set"."""

    def maybe(label: str, value: str) -> str:
        return value and check(label, value)

    return maybe


def default_backend() -> str:
    """The device_target of the installed backend that ember chooses when none is set."""
    from ember import _plugins

    return _plugins.default_device_target()


# ---- nested values -------------------------------------------------------------------------

_ON_OFF = one_of("on", "off")
PROFILING_OPTIONS = fields(
    Option("output", str, "", "Directory the profiling results are written to."),
    Option("training_trace", str, "off", "Collect the iteration trace.", _ON_OFF),
    Option("task_trace", str, "off", "Collect the task trace of the device.", _ON_OFF),
    Option("aicpu", str, "off", "Collect AICPU data.", _ON_OFF),
    Option("fp_point", str, "", "First forward operator of an iteration; empty: found."),
    Option("bp_point", str, "", "Last backward operator of an iteration; empty: found."),
    Option("aic_metrics", str, "PipeUtilization", "AICore metrics.", one_of(
        "ArithmeticUtilization", "PipeUtilization", "Memory", "MemoryL0",
        "ResourceConflictRatio",
    )),
)

ENV_CONFIG = fields(
    Option("rdr", dict, {}, "Running Data Recorder.", fields(
        Option("enable", bool, False, "Record key data of training for fault diagnosis."),
        Option("mode", int, 1, "1: record at a fault; 2: also at the normal end.",
               one_of(1, 2)),
        Option("path", str, "", "Where the records are saved.", absolute_path),
    )),
    Option("sys", dict, {}, "System settings.", fields(
        Option("mem_reuse", bool, True, "Let tensors reuse each other's device memory."),
    )),
)

SPLIT_INDICES = all_of(sequence_of(Option("index", int, 0, "A parameter index.", in_range(0))),
                       increasing)

SHARD = Option("shard", tuple, (), "Splits of one input, one per dimension.", sequence_of(
    Option("split", int, 1, "Number of slices of one dimension.", in_range(1))
))

_FUSION_CONFIG = {
    "auto": Option("config", type(None), None, "Fused by size, with a 64 MB threshold."),
    "size": Option("config", int, 64, "Fusion threshold in MB.", in_range(1)),
    "index": Option("config", list, [], "Parameter indices to split at.", SPLIT_INDICES),
}


def fusion_setting(label: str, value: dict[str, Any]) -> dict[str, Any]:
    """``{"mode": "auto" | "size" | "index", "config": ...}``, the config matching the mode."""
    for key in value:
        if key not in ("mode", "config"):
            raise unknown_key(label, key, ("mode", "config"))
    if "mode" not in value:
        raise ValueError(f"{label} needs a 'mode': one of {', '.join(map(repr, _FUSION_CONFIG))}")
    mode = Option("mode", str, "auto", "", one_of(*_FUSION_CONFIG)).validate(
        value["mode"], f"{label}['mode']"
    )
    config = _FUSION_CONFIG[mode].validate(value.get("config"), f"{label}['config']")
    return {"mode": mode, "config": config}


_OPTIMIZER_FIELDS = (
    Option("gradient_accumulation_shard", bool, True,
           "Shard the accumulated gradients across the data-parallel devices."),
    Option("parallel_optimizer_threshold", int, 64,
           "Parameters smaller than this many KB are not sharded.", in_range(0)),
)
_FUSION_FIELDS = (
    Option("allreduce", dict, {"mode": "auto", "config": None},
           "AllReduce fusion: mode 'auto' (config None), 'size' (config: threshold in MB) or "
           "'index' (config: parameter indices, as all_reduce_fusion_config).", fusion_setting),
)


def _table(*entries: Option | Alias) -> Mapping[str, Option]:
    table: dict[str, Option] = {}
    for entry in entries:
        if isinstance(entry, Alias):
            target = table[entry.of]
            entry = replace(target, name=entry.name, stores=target.name, deprecated=entry.why,
                            doc=f"Deprecated alias of {target.name}.")
        table[entry.name] = entry
    return MappingProxyType(table)


_PROFILER = "since MindSpore 1.6; use the Profiler API instead"
_DUMP = "since MindSpore 1.6; configure dumps with the MINDSPORE_DUMP_CONFIG file"
_ZERO_X = "a MindSpore 0.x key, stored for compatibility only"

# ---- the tables ----------------------------------------------------------------------------

CONTEXT = _table(
    # system
    Option("device_id", int, 0, "ID of the target device.", in_range(0, 4095)),
    Option("device_target", str, None,
           "The backend to run on: 'CPU', 'GPU', 'Ascend' or a third-party backend's target. "
           "Default: the installed backend ember prefers (EMBER_DEVICE_TARGET, else priority).",
           installed_backend, default_factory=default_backend),
    Option("max_device_memory", str, "1024GB",
           "Most device memory to use; the device's own memory if that is less.",
           memory_size(), platforms=GPU_ASCEND),
    Option("variable_memory_max_size", str, "30GB", "Most memory for variables.",
           memory_size(high_gb=31), platforms=ASCEND,
           deprecated="since MindSpore 1.6; use max_device_memory"),
    Option("mempool_block_size", str, "1GB", "Block size of the PyNative device memory pool.",
           memory_size(low_gb=1), platforms=GPU_ASCEND),
    # debugging
    Option("save_graphs", bool, False, "Write the IR of each compile stage."),
    Option("save_graphs_path", str, ".",
           "Directory the graphs are written to; created when set.", created_directory),
    Option("enable_dump", bool, False,
           "Dump the ops' inputs and outputs (ember.dump): as MINDSPORE_DUMP_CONFIG says, or "
           "every op into save_dump_path.", deprecated=_DUMP),
    Option("save_dump_path", str, ".", "Directory of the dumps.", directory, deprecated=_DUMP),
    Option("enable_profiling", bool, False,
           "Profile the process (ember.Profiler) into profiling_options' output until set to "
           "False or the process ends.", deprecated=_PROFILER),
    Option("profiling_options", str, "",
           "Profiling options as a JSON object with keys output, training_trace, task_trace, "
           "aicpu ('on'/'off'), fp_point, bp_point and aic_metrics; empty: not set. The "
           "Profiler reads output, fp_point and bp_point; the rest are Ascend's. Checked "
           "when enable_profiling is True; otherwise a bad value only warns, as it has no "
           "effect.", deprecated=_PROFILER),
    Option("print_file_path", str, "",
           "File that ops.Print writes to instead of the screen, as MindSpore's print protobuf "
           "(read it with ember.parse_print); if the file exists, '.<seconds since the epoch>' "
           "is appended to the name. Empty: the screen.", file_path, encode=timestamped),
    Option("env_config_path", str, "",
           'JSON file of environment settings: {"rdr": {"enable": bool, "mode": 1 or 2, '
           '"path": absolute path}, "sys": {"mem_reuse": bool}}; empty: not set. See '
           'ember.rdr.', json_file(ENV_CONFIG)),
    Option("precompile_only", bool, False, "Compile networks without running them."),
    Option("reserve_class_name_in_scope", bool, True,
           "Keep cell class names in scope names (Default/net-Net1 rather than Default/net)."),
    Option("pynative_synchronize", bool, False,
           "Run PyNative operators synchronously, so errors point at their source line.",
           platforms=GPU_ASCEND),
    # execution
    Option("mode", int, GRAPH_MODE, "GRAPH_MODE (0) or PYNATIVE_MODE (1).",
           one_of(GRAPH_MODE, PYNATIVE_MODE)),
    Option("enable_graph_kernel", bool, False, "Fuse operators with graph kernel fusion.",
           platforms=GPU_ASCEND),
    Option("graph_kernel_flags", str, "",
           "Graph kernel fusion flags, such as '--opt_level=2 --dump_as_text'.",
           graph_kernel_flag_list, platforms=GPU_ASCEND),
    Option("enable_reduce_precision", bool, True,
           "Lower the precision of operators that lack the requested one.", platforms=ASCEND),
    Option("auto_tune_mode", str, "NO_TUNE",
           "Operator tuning: NO_TUNE, RL (reinforcement learning), GA (genetic algorithm) or "
           "both.", one_of("NO_TUNE", "RL", "GA", "RL,GA", "GA,RL"), platforms=ASCEND),
    Option("check_bprop", bool, False,
           "Check that custom bprop outputs match their inputs' shape and dtype."),
    Option("max_call_depth", int, 1000, "Deepest function call of a graph.", in_range(1)),
    Option("enable_sparse", bool, False, "Enable sparse tensors."),
    Option("grad_for_scalar", bool, False, "Differentiate with respect to scalar inputs."),
    Option("enable_compile_cache", bool, False,
           "Save the compiled front-end graph and reuse it while the script is unchanged."),
    Option("compile_cache_path", str, None,
           "Directory of the compile cache; created when set. Default: the per-user cache "
           "directory ($XDG_CACHE_HOME/ember, else ~/.cache/ember). Its entries are trusted "
           "input, as the scripts are: keep it writable only by you.", created_directory,
           default_factory=user_cache_directory),
    # Ember extensions (not in MindSpore)
    Option("fallback_device_target", str, "",
           "Ember extension: the device_target that runs primitives the current backend has "
           "no kernel for (data moves through host memory; one warning per primitive, and a "
           "report at exit). Empty: such a primitive raises MissingKernelError.",
           optional(installed_backend)),
    Option("deterministic", str, "OFF",
           "Ember extension (MindSpore 2's key): 'ON' runs every operator deterministically, "
           "so a run repeats bit for bit (GPU: TensorFlow's op determinism; an operator that "
           "has no deterministic kernel raises); 'OFF' allows faster nondeterministic ones. "
           "The CPU backend is always deterministic.", one_of("ON", "OFF")),
    # MindSpore 0.x
    Option("save_ms_model", bool, False, "Save the converted lite model.", deprecated=_ZERO_X),
    Option("save_ms_model_path", str, ".", "Path of the lite model.", directory,
           deprecated=_ZERO_X),
    Option("enable_auto_mixed_precision", bool, True, "Automatic mixed precision.",
           deprecated=f"{_ZERO_X}; mixed precision is set by the amp level of a Model"),
)

AUTO_PARALLEL = _table(
    Option("device_num", int, 1, "Number of devices.", in_range(1, 4096)),
    Option("global_rank", int, 0, "Global rank of this process.", in_range(0, 4095)),
    Option("gradients_mean", bool, False, "Divide the all-reduced gradients by device_num."),
    Option("gradient_fp32_sync", bool, True, "All-reduce gradients in float32."),
    Option("parallel_mode", str, ParallelMode.STAND_ALONE,
           "How the network is parallelised: a ParallelMode value.",
           one_of(*ParallelMode.MODE_LIST)),
    Option("search_mode", str, "dynamic_programming", "How auto_parallel finds strategies.",
           one_of("recursive_programming", "dynamic_programming", "sharding_propagation")),
    Alias("auto_parallel_search_mode", "search_mode", "the MindSpore 1.5 name of search_mode"),
    Option("parameter_broadcast", bool, False, "Broadcast the parameters of device 0 first."),
    Option("strategy_ckpt_load_file", str, "", "File to load the parallel strategy from."),
    Option("strategy_ckpt_save_file", str, "", "File to save the parallel strategy to."),
    Option("dataset_strategy", (str, tuple), "data_parallel",
           "How the dataset is split: 'data_parallel', 'full_batch', or a shard strategy per "
           "input such as ((1, 8), (1, 8)).",
           by_type({str: one_of("data_parallel", "full_batch"), tuple: sequence_of(SHARD)})),
    Option("full_batch", bool, False,
           "Each device loads the whole batch: the same as dataset_strategy='full_batch'.",
           stores="dataset_strategy", encode=lambda full: "full_batch" if full else "data_parallel",
           decode=lambda strategy: strategy == "full_batch"),
    Option("enable_parallel_optimizer", bool, False,
           "Shard the optimizer's weight update across devices."),
    Option("all_reduce_fusion_config", list, [],
           "Parameter indices at which AllReduce fusion splits; empty: no fusion.",
           SPLIT_INDICES),
    Option("pipeline_stages", int, 1, "Number of pipeline stages.", in_range(1)),
    Option("grad_accumulation_step", int, 1, "Steps over which gradients accumulate.",
           in_range(1)),
    Option("parallel_optimizer_config", dict, defaults(*_OPTIMIZER_FIELDS),
           "Parallel optimizer settings; a call updates the keys it gives.",
           fields(*_OPTIMIZER_FIELDS)),
    Option("comm_fusion", dict, defaults(*_FUSION_FIELDS),
           "Fusion of communication operators; a call updates the operators it gives.",
           fields(*_FUSION_FIELDS)),
    # Keys 1.6's set_auto_parallel_context accepts without documenting them.
    Option("loss_repeated_mean", bool, True,
           "Divide the gradient of a repeatedly computed loss by the repetition."),
    Option("group_ckpt_save_file", str, "", "File to save the communication groups to."),
    Option("communi_parallel_mode", str, "all_group_parallel",
           "Which communication groups run in parallel.",
           one_of("all_group_parallel", "same_server_group_parallel", "no_group_parallel")),
    Option("optimizer_weight_shard_size", int, -1,
           "Size of the groups the parallel optimizer shards weights over; -1: the whole "
           "data-parallel dimension.", lambda label, value: value if value == -1 else
           in_range(2)(label, value)),
    Option("optimizer_weight_shard_aggregated_save", bool, False,
           "Save the parallel optimizer's weight shards aggregated."),
    Option("sharding_propagation", bool, False,
           "auto_parallel propagates the configured strategies instead of searching."),
    Option("enable_alltoall", bool, False,
           "Redistribute with AllToAll instead of AllGather and Split."),
    Option("enable_all_reduce_fusion", bool, True,
           "Fuse the gradients' AllReduce operators (1.6 sets it through "
           "auto_parallel_context().set_enable_all_reduce_fusion only)."),
    Alias("mirror_mean", "gradients_mean", "the MindSpore 0.x name of gradients_mean"),
    Alias("cast_before_mirror", "gradient_fp32_sync",
          "the MindSpore 0.x name of gradient_fp32_sync"),
)


def _open_unit(label: str, value: float) -> float:
    if not 0 < value <= 1:
        raise ValueError(f"{label} must be in (0, 1], but got {value!r}")
    return value


#: set_algo_parameters: the strategy search of auto_parallel, which ember does not run.
ALGO = _table(
    Option("fully_use_devices", bool, True,
           "Search only strategies that use every device."),
    Option("elementwise_op_strategy_follow", bool, False,
           "Elementwise operators take the strategy of the operator after them."),
    Option("tensor_slice_align_enable", bool, False, "Check the slice shapes of MatMul."),
    Option("tensor_slice_align_size", int, 16, "The smallest slice of MatMul's last dimension.",
           in_range(1, 1024)),
    Option("enable_algo_approxi", bool, False,
           "Approximate the search by dropping candidate strategies."),
    Option("algo_approxi_epsilon", float, 0.1,
           "Extent of the approximation: min(S, 1/epsilon) of S candidates remain.", _open_unit),
)


def _positive(label: str, value: float) -> float:
    if value <= 0:
        raise ValueError(f"{label} must be positive, but got {value!r}")
    return value


def _non_negative(label: str, value: float) -> float:
    if value < 0:
        raise ValueError(f"{label} must be non-negative, but got {value!r}")
    return value


def _unit_interval(label: str, value: float) -> float:
    if not 0 <= value <= 1:
        raise ValueError(f"{label} must be in [0, 1], but got {value!r}")
    return value


def _costmodel_beta() -> float:
    from ember import context

    return 50.0 if context.get_context("device_target") == "GPU" else 400.0


#: set_cost_model_context: the cost model of auto_parallel's strategy search and of AllReduce
#: fusion, which ember does not run.
COST_MODEL = _table(
    Option("device_memory_capacity", float, 16.0 * 1024**3, "Memory of each device in bytes.",
           _positive),
    Option("costmodel_alpha", float, 1.0, "Weight of computation in an operator's cost.",
           _positive),
    Option("costmodel_beta", float, None,
           "Weight of communication in an operator's cost (default 400.0; 50.0 on GPU).",
           _positive, default_factory=_costmodel_beta),
    Option("costmodel_gamma", float, 0.001, "Weight of the memory cost.", _unit_interval),
    Option("costmodel_communi_threshold", float, 2048.0,
           "Communication volume below which communication costs the constant.", _non_negative),
    Option("costmodel_communi_const", float, 3072.0, "Cost of a small communication.",
           _non_negative),
    Option("costmodel_communi_bias", float, 1024.0, "Bias of the communication cost.",
           _non_negative),
    Option("run_phase", int, 0, "0: training, 1: inference.", one_of(0, 1)),
    Option("costmodel_allreduce_fusion_algorithm", int, 0,
           "0: no AllReduce fusion; 1: grouped by backward time; 2: by backward and "
           "AllReduce time."),
    Option("costmodel_allreduce_fusion_times", int, 0, "Number of fused AllReduce groups."),
    Option("costmodel_allreduce_fusion_tail_percent", float, 0.1,
           "Share of the backward time taken by the last gradients' AllReduce."),
    Option("costmodel_allreduce_fusion_tail_time", float, 0.1,
           "Time of the last AllReduce after the backward pass ends."),
    Option("costmodel_allreduce_fusion_allreduce_inherent_time", float, 0.1,
           "Fixed cost of one AllReduce."),
    Option("costmodel_allreduce_fusion_allreduce_bandwidth", float, 0.1,
           "Bandwidth of AllReduce."),
    Option("costmodel_allreduce_fusion_computation_time_parameter", float, 0.1,
           "Factor that gives the backward computation time."),
)

PS = _table(
    Option("enable_ps", bool, False,
           "Parameter-server training; the environment variables below are read when a "
           "server starts (those set are checked now)."),
    Option("config_file_path", str, "", "Configuration file for server disaster recovery."),
    Option("scheduler_manage_port", int, 11202, "Scheduler port for scale-out/in requests.",
           in_range(1, 65535)),
    Option("enable_ssl", bool, False, "Use SSL between the processes."),
    Option("client_password", str, "", "Password of the client certificate's key.",
           secret=True),
    Option("server_password", str, "", "Password of the server certificate's key.",
           secret=True),
    Option("server_num", int, None, "Number of servers.", in_range(1), env="MS_SERVER_NUM"),
    Option("worker_num", int, None, "Number of workers.", in_range(1), env="MS_WORKER_NUM"),
    Option("scheduler_ip", str, None, "IP address of the scheduler.", ip_address,
           env="MS_SCHED_HOST"),
    Option("scheduler_port", int, None, "Port of the scheduler.", in_range(1, 65535),
           env="MS_SCHED_PORT"),
    Option("ms_role", str, None, "Role of this process: MS_SCHED, MS_WORKER or MS_PSERVER.",
           one_of("MS_SCHED", "MS_WORKER", "MS_PSERVER", "MS_SERVER"), env="MS_ROLE"),
)

PS_ENVIRONMENT = tuple(option for option in PS.values() if option.env)


# ---- constraints between keys --------------------------------------------------------------


def _pynative_parallel_modes(value_of: Callable[[str], Any]) -> None:
    parallel_mode = value_of("parallel_mode")
    if value_of("mode") == PYNATIVE_MODE and parallel_mode not in PYNATIVE_PARALLEL_MODES:
        accepted = " and ".join(map(repr, PYNATIVE_PARALLEL_MODES))
        raise ValueError(
            f"PYNATIVE_MODE accepts only parallel_mode {accepted}, but this call would combine "
            f"mode=PYNATIVE_MODE with parallel_mode={parallel_mode!r}: use GRAPH_MODE for "
            f"{parallel_mode!r}, or one of the accepted parallel modes"
        )


def _ps_environment(value_of: Callable[[str], Any]) -> None:
    """The MS_* variables that are set must be valid; as MindSpore, the missing ones are
    needed only when a parameter server starts."""
    if value_of("enable_ps"):
        for option in PS_ENVIRONMENT:
            option.read_env()


_PROFILING_TEXT = json_text(PROFILING_OPTIONS)


def _profiling_options(value_of: Callable[[str], Any]) -> None:
    """profiling_options must be valid while enable_profiling is True; otherwise a bad value
    has no effect, and warns (MindSpore accepts it then)."""
    try:
        _PROFILING_TEXT("profiling_options", value_of("profiling_options"))
    except (TypeError, ValueError) as exc:
        if value_of("enable_profiling"):
            raise
        warnings.warn(f"{exc}. It has no effect while enable_profiling is False, and is "
                      "checked again when enable_profiling is set", UserWarning, stacklevel=4)


RULES = (
    Rule(frozenset({"mode", "parallel_mode"}), _pynative_parallel_modes),
    Rule(frozenset({"enable_ps"}), _ps_environment),
    Rule(frozenset({"profiling_options", "enable_profiling"}), _profiling_options),
)
