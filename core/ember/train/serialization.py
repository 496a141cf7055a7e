"""Checkpoints in MindSpore's ``.ckpt`` format: ``save_checkpoint``, ``load_checkpoint`` and
``load_param_into_net``; parameters sliced by parallel training merged again
(``merge_sliced_parameter``, with the layouts of ``build_searched_strategy``).

A ``.ckpt`` file is a sequence of serialized ``Checkpoint`` protobuf messages (see
``_checkpoint_proto``); each ``Value`` is a ``tag`` (the parameter name) and a ``TensorProto``:
the shape in ``dims`` (``[0]`` for a 0-d tensor, as MindSpore writes it), the dtype as MindSpore
prints it (``"Float32"``) and the raw little-endian bytes in C order. A tensor larger than
512 MiB is written as consecutive Values with the same tag, each holding a slice of the bytes.
Files move both ways between MindSpore and Ember. Writes go to a temporary file that is renamed
over the target, so an interrupted save leaves the previous file intact (and the next save of
the target removes the temporary a killed process left); reads validate every entry and never
unpickle.
"""

from __future__ import annotations

import math
import mmap
import os
import threading
import warnings
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np

from ember._files import new_temporary
from ember.common import dtype as mstype
from ember.common.parameter import Parameter
from ember.common.tensor import Tensor
from ember.nn.cell import Cell
from ember.train._checkpoint_proto import (
    Checkpoint,
    CheckpointFormatError,
    DecodeError,
    Print,
    read_checkpoint,
)
from ember.train._export import export  # MindSpore 1.6 defines these two in this module
from ember.train._strategy_proto import ParallelStrategyMap
from ember.train.mindir import load

__all__ = ["build_searched_strategy", "export", "load", "load_checkpoint", "load_param_into_net",
           "merge_sliced_parameter", "parse_print", "save_checkpoint"]

_SLICE_BYTES = 512 * 1024 * 1024  # MindSpore's SLICE_SIZE: larger tensors are split

# tensor_type strings: MindSpore writes ``str(dtype)``; its 1.x reader also spelled "Uint8"...
_TENSOR_TYPES: dict[str, mstype.Type] = {t.name: t for t in mstype.all_types}
_TENSOR_TYPES.update({t.name.replace("UInt", "Uint"): t for t in mstype.uint_type})
_INT_TYPES = frozenset(mstype.int_type)
_FLOAT_TYPES = frozenset(mstype.float_type)


class _Record(NamedTuple):
    """One checkpoint entry as it is written: name, dims, tensor_type and C-order LE bytes."""

    name: str
    dims: list[int]
    tensor_type: str
    content: bytes
    itemsize: int


# -- argument checks ------------------------------------------------------------------------------
def _check_bool(func: str, arg: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{func}: '{arg}' must be a bool, but got {type(value).__name__} "
                        f"{value!r}")
    return value


def _check_no_crypto(func: str, key_arg: str, key: Any, mode_arg: str, mode: Any) -> None:
    if not isinstance(mode, str):
        raise TypeError(f"{func}: '{mode_arg}' must be a str, but got {type(mode).__name__}")
    if key is not None:
        raise ValueError(f"{func}: '{key_arg}' is given, but ember does not support encrypted "
                         "checkpoints (MindSpore's AES-GCM/AES-CBC); pass "
                         f"{key_arg}=None")


def _file_name(func: str, ckpt_file_name: Any) -> str:
    if not isinstance(ckpt_file_name, str | os.PathLike):
        raise TypeError(f"{func}: 'ckpt_file_name' must be a str or os.PathLike, but got "
                        f"{type(ckpt_file_name).__name__}")
    name = os.fspath(ckpt_file_name)
    if not isinstance(name, str) or not name:
        raise ValueError(f"{func}: 'ckpt_file_name' must be a non-empty file name, but got "
                         f"{ckpt_file_name!r}")
    return os.path.realpath(name)


# -- save -----------------------------------------------------------------------------------------
def _record(name: str, data: Tensor) -> _Record:
    array = data.asnumpy()
    little = array.astype(array.dtype.newbyteorder("<"), copy=False)
    dims = list(array.shape) if array.ndim else [0]
    return _Record(name, dims, data.dtype.name, little.tobytes(order="C"), array.itemsize)


def _save_entries(save_obj: Any) -> list[tuple[str, Tensor]]:
    func = "save_checkpoint"
    if isinstance(save_obj, Cell):
        return [(param.name, param) for _, param in save_obj.parameters_and_names()]
    if not isinstance(save_obj, list):
        raise TypeError(f"{func}: 'save_obj' must be a Cell or a list of "
                        "{'name': str, 'data': Tensor} dicts, but got "
                        f"{type(save_obj).__name__}")
    entries = []
    for index, item in enumerate(save_obj):
        if (not isinstance(item, dict) or not isinstance(item.get("name"), str)
                or not isinstance(item.get("data"), Tensor)):
            raise TypeError(f"{func}: save_obj[{index}] must be a dict "
                            "{'name': str, 'data': Tensor or Parameter}, but got "
                            f"{item!r:.80}")
        entries.append((item["name"], item["data"]))
    return entries


def _append_entries(append_dict: Any) -> list[tuple[str, Tensor]]:
    if append_dict is None:
        return []
    if not isinstance(append_dict, dict):
        raise TypeError("save_checkpoint: 'append_dict' must be a dict of str to int, float, "
                        f"bool or Tensor, but got {type(append_dict).__name__}")
    entries = []
    for key, value in append_dict.items():
        if not isinstance(key, str) or not isinstance(value, int | float | Tensor):
            raise TypeError("save_checkpoint: 'append_dict' must map str to int, float, bool "
                            f"or Tensor, but got {key!r}: {type(value).__name__}")
        entries.append((key, value if isinstance(value, Tensor) else Tensor(value)))
    return entries


def _serialize(record: _Record) -> Iterator[bytes]:
    """One ``Checkpoint`` message per slice of at most ``_SLICE_BYTES`` (whole elements)."""
    step = max(1, _SLICE_BYTES // record.itemsize) * record.itemsize
    for start in range(0, max(len(record.content), 1), step):
        checkpoint = Checkpoint()
        value = checkpoint.value.add()
        value.tag = record.name
        value.tensor.dims.extend(record.dims)
        value.tensor.tensor_type = record.tensor_type
        value.tensor.tensor_content = record.content[start:start + step]
        yield checkpoint.SerializeToString()


def _fsync_directory(directory: str) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # platforms where a directory cannot be opened (Windows)
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_file(path: str, records: list[_Record]) -> None:
    """Write to a temporary file next to ``path``, fsync it, then rename it over ``path``."""
    directory = os.path.dirname(path)
    fd, temporary = new_temporary(path)
    try:
        with os.fdopen(fd, "wb") as file:
            for record in records:
                for message in _serialize(record):
                    file.write(message)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.remove(temporary)
        except OSError:
            pass
        raise
    _fsync_directory(directory)


class _AsyncSave(threading.Thread):
    """A background save; its error is raised by the next save or load of the same file."""

    def __init__(self, path: str, records: list[_Record]) -> None:
        super().__init__(name=f"save_checkpoint {path}")
        self.path, self.records = path, records
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            _write_file(self.path, self.records)
        except BaseException as exc:  # kept, and raised by the next save or load of the file
            self.error = exc
            warnings.warn(f"save_checkpoint(async_save=True) of {self.path} failed: {exc!r}",
                          RuntimeWarning, stacklevel=1)


_pending_lock = threading.Lock()
_pending: dict[str, _AsyncSave] = {}


def _wait_for_save(path: str) -> None:
    """Finish an asynchronous save of ``path``; raise RuntimeError if it failed."""
    with _pending_lock:
        save = _pending.pop(path, None)
    if save is None:
        return
    save.join()
    if save.error is not None:
        raise RuntimeError(f"save_checkpoint(async_save=True) of {path} failed: "
                           f"{save.error}") from save.error


def save_checkpoint(save_obj: Cell | list[dict[str, Any]], ckpt_file_name: str | os.PathLike,
                    integrated_save: bool = True, async_save: bool = False,
                    append_dict: dict[str, Any] | None = None, enc_key: bytes | None = None,
                    enc_mode: str = "AES-GCM") -> None:
    """Save a Cell's parameters (by ``param.name``), or a list of ``{"name", "data"}`` dicts,
    to ``ckpt_file_name`` (``.ckpt`` is appended when missing) in MindSpore's format.

    ``append_dict`` adds entries such as ``{"epoch_num": 3}`` (ints become Int64, floats
    Float32). The values are copied when the call is made; with ``async_save=True`` a thread
    writes them, and the next save or load of the same file waits for it (and raises if it
    failed). ``integrated_save`` matters only for model parallelism, which ember does not
    split parameters for. Encryption is not supported: ``enc_key`` must be None.
    """
    func = "save_checkpoint"
    _check_bool(func, "integrated_save", integrated_save)
    _check_bool(func, "async_save", async_save)
    _check_no_crypto(func, "enc_key", enc_key, "enc_mode", enc_mode)
    path = _file_name(func, ckpt_file_name)
    if not path.endswith(".ckpt"):
        path += ".ckpt"
    records: list[_Record] = []
    seen: set[str] = set()
    for name, data in _save_entries(save_obj) + _append_entries(append_dict):
        if not name:
            raise ValueError(f"{func}: every entry needs a non-empty name, but one is ''")
        if name in seen:
            raise ValueError(f"{func}: two entries are named '{name}'; checkpoint names must "
                             "be unique (rename a Parameter, or an append_dict key)")
        seen.add(name)
        records.append(_record(name, data))
    _wait_for_save(path)
    if not async_save:
        _write_file(path, records)
        return
    save = _AsyncSave(path, records)
    with _pending_lock:
        _pending[path] = save
    save.start()


# -- load -----------------------------------------------------------------------------------------
def _prefixes(filter_prefix: Any) -> tuple[str, ...]:
    if filter_prefix is None:
        return ()
    prefixes = (filter_prefix,) if isinstance(filter_prefix, str) else filter_prefix
    if not isinstance(prefixes, list | tuple) or not all(isinstance(p, str) for p in prefixes):
        raise TypeError("load_checkpoint: 'filter_prefix' must be a str, list[str] or "
                        f"tuple[str], but got {filter_prefix!r:.80}")
    if not prefixes:
        raise ValueError("load_checkpoint: 'filter_prefix' must not be an empty list or tuple")
    return tuple(prefixes)


def _filtered(name: str, prefixes: tuple[str, ...]) -> bool:
    """MindSpore's rule: ``conv1`` filters ``conv1`` and ``conv1.weight``, not ``conv10.w``."""
    return any(name.startswith(p) and (name == p or name[len(p)] == "." or p.endswith("."))
               for p in prefixes) if prefixes else False


def _decode_entry(path: str, tag: str, tensors: Sequence[Any]) -> Parameter:
    """A Parameter from the tensors of the consecutive Values (slices) that carry ``tag``."""
    array = _decode_array(f"checkpoint file {path}: entry '{tag}'", tensors)
    return Parameter(array, name=tag, requires_grad=True)  # the one copy of the data


def _decode_array(where: str, tensors: Sequence[Any]) -> np.ndarray:
    """The array held by TensorProtos (the slices of one tensor), validated."""
    dims, tensor_type = list(tensors[0].dims), tensors[0].tensor_type
    if any(list(t.dims) != dims or t.tensor_type != tensor_type for t in tensors[1:]):
        raise ValueError(f"{where} is split into slices whose dims or tensor_type differ")
    dtype = _TENSOR_TYPES.get(tensor_type) if isinstance(tensor_type, str) else None
    if dtype is None:
        raise ValueError(f"{where} has unknown tensor_type {tensor_type!r}; accepted: "
                         f"{', '.join(t.name for t in mstype.all_types)}")
    if any(d < 0 for d in dims):
        raise ValueError(f"{where} has negative dims {dims}")
    content = (tensors[0].tensor_content if len(tensors) == 1
               else b"".join(t.tensor_content for t in tensors))
    itemsize = dtype.np_dtype.itemsize
    shape = tuple(dims)
    if dims == [0] and len(content) == itemsize:
        shape = ()  # MindSpore writes a 0-d tensor as dims [0] with one element
    expected = math.prod(shape) * itemsize
    if len(content) != expected:
        raise ValueError(f"{where} ({tensor_type}, dims {dims}) should hold {expected} bytes, "
                         f"but holds {len(content)}: the file is truncated or corrupted")
    if dtype is mstype.bool_ and content and np.frombuffer(content, np.uint8).max() > 1:
        raise ValueError(f"{where} is Bool but holds bytes other than 0 and 1")
    array = np.frombuffer(content, dtype.np_dtype.newbyteorder("<")).reshape(shape)
    return array.astype(dtype.np_dtype, copy=False)  # a view on little-endian hosts


def _decode(path: str, content: memoryview, prefixes: tuple[str, ...]) -> dict[str, Parameter]:
    try:
        values = read_checkpoint(content)
    except CheckpointFormatError as exc:
        raise ValueError(f"checkpoint file {path} is not a valid MindSpore checkpoint "
                         f"(truncated or corrupted): {exc}") from None
    groups: list[tuple[str, list[Any]]] = []
    for tag, tensor in values:  # consecutive Values with one tag are slices of one tensor
        if not tag:
            raise ValueError(f"checkpoint file {path} is corrupted: an entry's tag "
                             f"{tag!r} is not a non-empty UTF-8 name")
        if groups and groups[-1][0] == tag:
            groups[-1][1].append(tensor)
        else:
            groups.append((tag, [tensor]))
    parameters: dict[str, Parameter] = {}
    seen: set[str] = set()
    for tag, values in groups:
        if tag in seen:
            raise ValueError(f"checkpoint file {path} is corrupted: entry '{tag}' appears twice")
        seen.add(tag)
        if not _filtered(tag, prefixes):
            parameters[tag] = _decode_entry(path, tag, values)
    return parameters


def load_checkpoint(ckpt_file_name: str | os.PathLike, net: Cell | None = None,
                    strict_load: bool = False,
                    filter_prefix: str | list[str] | tuple[str, ...] | None = None,
                    dec_key: bytes | None = None,
                    dec_mode: str = "AES-GCM") -> dict[str, Parameter]:
    """Read a MindSpore ``.ckpt`` file into ``{name: Parameter}`` (named as in the file,
    ``requires_grad=True``); with ``net``, also load it with ``load_param_into_net``.

    ``filter_prefix`` skips names equal to a prefix or under it (``"conv1"`` skips
    ``conv1.weight``, not ``conv10.weight``). A missing, truncated or corrupted file raises
    ValueError naming the file and the fault, and ``net`` is left unchanged. Decryption is not
    supported: ``dec_key`` must be None.
    """
    func = "load_checkpoint"
    path = _file_name(func, ckpt_file_name)
    prefixes = _prefixes(filter_prefix)
    _check_bool(func, "strict_load", strict_load)
    _check_no_crypto(func, "dec_key", dec_key, "dec_mode", dec_mode)
    if net is not None and not isinstance(net, Cell):
        raise TypeError(f"{func}: 'net' must be a Cell or None, but got {type(net).__name__}")
    if not path.endswith(".ckpt"):
        raise ValueError(f"{func}: checkpoint file {path} must have the extension .ckpt")
    _wait_for_save(path)
    if not os.path.isfile(path):
        raise ValueError(f"{func}: checkpoint file {path} does not exist"
                         + (" (it is a directory)" if os.path.isdir(path) else ""))
    with open(path, "rb") as file:  # mapped, not read: tensors are copied once, into arrays
        empty = os.fstat(file.fileno()).st_size == 0
        content = memoryview(b"" if empty else mmap.mmap(file.fileno(), 0,
                                                          access=mmap.ACCESS_READ))
    parameters = _decode(path, content, prefixes)  # the map is gone with the last view
    if not parameters:
        raise ValueError(f"{func}: checkpoint file {path} holds no parameters"
                         + (f" once filter_prefix={filter_prefix!r} is applied" if prefixes
                            else ""))
    if net is not None:
        load_param_into_net(net, parameters, strict_load)
    return parameters


# -- load into a network --------------------------------------------------------------------------
def _match(params: list[Parameter], parameter_dict: dict[str, Parameter],
           strict_load: bool) -> tuple[list[tuple[Parameter, str]], list[str]]:
    """Pair net parameters with dict keys by name; if not strict, then as MindSpore does,
    under a prefix the dict's keys carry (``backbone.`` + ``conv1.weight``)."""
    pairs = [(p, p.name) for p in params if p.name in parameter_dict]
    pending = {p.name: p for p in params if p.name not in parameter_dict}
    while pending and not strict_load:
        prefix = next((key[:-len(name)] for name in pending for key in parameter_dict
                       if key.endswith(name)), None)
        if prefix is None:
            break
        warnings.warn(f"load_param_into_net: loading parameter_dict entries named '{prefix}' "
                      "+ the net's parameter name", stacklevel=3)
        for name in [n for n in pending if prefix + n in parameter_dict]:
            pairs.append((pending.pop(name), prefix + name))
    return pairs, list(pending)


def _new_value(param: Parameter, key: str, new: Parameter, strict_load: bool) -> np.ndarray:
    """The array to give ``param``, after checking shape and dtype (nothing is changed)."""
    array = new.asnumpy()
    if array.shape != param.shape:
        trailing_ones = (array.ndim > param.ndim and array.shape[:param.ndim] == param.shape
                         and all(d == 1 for d in array.shape[param.ndim:]))
        if not trailing_ones:  # MindSpore drops trailing 1s (Ascend's 4-d layouts)
            raise ValueError(f"load_param_into_net: parameter '{param.name}' has shape "
                             f"{list(param.shape)} in the net but {list(array.shape)} in "
                             f"parameter_dict['{key}']; nothing was loaded")
        array = array.reshape(param.shape)
    if new.dtype is not param.dtype:
        kinds = {new.dtype, param.dtype}
        if strict_load or not (kinds <= _FLOAT_TYPES or kinds <= _INT_TYPES):
            raise ValueError(f"load_param_into_net: parameter '{param.name}' is "
                             f"{param.dtype} in the net but {new.dtype} in "
                             f"parameter_dict['{key}']; only float to float and int to int "
                             "convert, and only with strict_load=False; nothing was loaded")
        warnings.warn(f"load_param_into_net: parameter_dict['{key}'] is {new.dtype}; "
                      f"converted to the net's {param.dtype}", stacklevel=3)
    return array


def load_param_into_net(net: Cell, parameter_dict: dict[str, Parameter],
                        strict_load: bool = False) -> list[str]:
    """Copy ``parameter_dict``'s values into the net's parameters of the same name; return
    the names of the net's parameters that were not loaded.

    Every pair is checked before any parameter changes: a shape mismatch raises ValueError
    naming the parameter and both shapes. A dtype mismatch converts float to float and int to
    int with a warning unless ``strict_load``; other mismatches raise. Without ``strict_load``,
    names also match under a prefix that the dict's keys carry (as MindSpore does) and net
    parameters left without a value are reported in a warning; with ``strict_load`` they raise
    ValueError. Entries that no net parameter takes are reported in a warning.
    """
    func = "load_param_into_net"
    if not isinstance(net, Cell):
        raise TypeError(f"{func}: 'net' must be a Cell, but got {type(net).__name__}")
    if not isinstance(parameter_dict, dict):
        raise TypeError(f"{func}: 'parameter_dict' must be a dict of str to Parameter, but got "
                        f"{type(parameter_dict).__name__}")
    for key, value in parameter_dict.items():
        if not isinstance(value, Parameter):
            raise TypeError(f"{func}: 'parameter_dict' must map str to Parameter, but "
                            f"{key!r} maps to {type(value).__name__}")
    _check_bool(func, "strict_load", strict_load)
    pairs, not_loaded = _match([p for _, p in net.parameters_and_names()], parameter_dict,
                               strict_load)
    if not_loaded and strict_load:
        raise ValueError(f"{func}: strict_load=True, but parameter_dict has no value for "
                         f"{not_loaded}; nothing was loaded")
    updates = []
    for param, key in pairs:
        updates.append((param, _new_value(param, key, parameter_dict[key], strict_load)))
    for param, array in updates:
        param.set_data(array)
    if not_loaded:
        warnings.warn(f"{func}: {len(not_loaded)} parameters of the net are not loaded: "
                      f"{not_loaded}", stacklevel=2)
    used = {key for _, key in pairs}
    unexpected = [key for key in parameter_dict if key not in used]
    if unexpected:
        warnings.warn(f"{func}: parameter_dict entries that the net has no parameter for: "
                      f"{unexpected}", stacklevel=2)
    return not_loaded


# -- parameters sliced across the devices of parallel training -----------------------------------
def build_searched_strategy(strategy_filename: str | os.PathLike) -> dict[str, Any]:
    """The tensor layout of every sliced parameter in a strategy file that MindSpore's auto
    parallel wrote (``strategy_ckpt_save_file``, a ``ParallelStrategyMap`` of
    node_strategy.proto): ``{parameter name: ParallelLayouts}``, for merge_sliced_parameter."""
    func = "build_searched_strategy"
    if not isinstance(strategy_filename, str | os.PathLike):
        raise TypeError(f"{func}: strategy_filename must be a str, but got "
                        f"{type(strategy_filename).__name__}")
    path = os.fspath(strategy_filename)
    if not os.path.isfile(path):
        raise ValueError(f"{func}: no such strategy file: {path!r}")
    if os.path.getsize(path) == 0:
        raise ValueError(f"{func}: the strategy file {path!r} is empty")
    strategy_map = _parsed(func, path, ParallelStrategyMap(),
                           "a strategy file (a ParallelStrategyMap message)")
    if not strategy_map.parallel_layout_item:
        raise ValueError(f"{func}: the strategy file {path!r} has no sliced parameter")
    return {item.param_name: item.parallel_layouts for item in strategy_map.parallel_layout_item}


def _parsed(func: str, path: str, message: Any, what: str) -> Any:
    """``message`` filled from the protobuf file ``path``; ValueError saying it is not
    ``what`` if it does not parse."""
    try:
        with open(path, "rb") as f:
            message.ParseFromString(f.read())
    except DecodeError as exc:
        raise ValueError(f"{func}: {path!r} is not {what}: {exc}") from None
    return message


def _layout(func: str, name: str, layout: Any) -> tuple[list[int], list[int], list[int], int]:
    """(device matrix, tensor map, split shape, field size) of a ParallelLayouts."""
    try:
        split = list(layout.param_split_shape[0].dim) if layout.param_split_shape else []
        return (list(layout.dev_matrix[0].dim), list(layout.tensor_map[0].dim), split,
                int(layout.field))
    except (AttributeError, IndexError, TypeError) as exc:
        raise ValueError(f"{func}: the strategy of {name!r} is not a ParallelLayouts of "
                         f"node_strategy.proto with a dev_matrix and a tensor_map "
                         f"({exc})") from None


def _merge_by_field(func: str, arrays: list[np.ndarray], field: int) -> np.ndarray:
    """An embedding table sliced by ``field`` (wide and deep): each device holds, for every
    field, a contiguous block of its rows (of each column)."""
    if arrays[0].ndim != 2 or arrays[0].shape[0] % field:
        raise ValueError(f"{func}: slices with field size {field} must be 2-D with rows a "
                         f"multiple of it, but got shape {list(arrays[0].shape)}")
    columns = [np.concatenate([a[:, i].reshape(field, -1) for a in arrays], axis=1).ravel()
               for i in range(arrays[0].shape[1])]
    return np.stack(columns, axis=1)


def _merge_by_layout(func: str, name: str, arrays: list[np.ndarray], layout: Any) -> np.ndarray:
    """The whole tensor from the slices of devices 0, 1, ... laid out by ``layout``: axis k
    is split over device-matrix dimension ``tensor_map[k]`` (counted from the right; -1:
    not split), and devices that differ only along unused dimensions hold the same slice."""
    dev_matrix, tensor_map, split_shape, field = _layout(func, name, layout)
    if len(arrays) != math.prod(dev_matrix):
        raise ValueError(f"{func}: the strategy of {name!r} lays it over "
                         f"{math.prod(dev_matrix)} devices (dev_matrix {dev_matrix}), but "
                         f"{len(arrays)} slices were given")
    if not split_shape and any(a.shape != arrays[0].shape for a in arrays):
        raise ValueError(f"{func}: the slices of {name!r} must all have one shape when the "
                         f"strategy slices it evenly, but got "
                         f"{[list(a.shape) for a in arrays]}")
    if field > 0:
        return _merge_by_field(func, arrays, field)
    if len(tensor_map) != arrays[0].ndim or any(not -1 <= d < len(dev_matrix)
                                                for d in tensor_map):
        raise ValueError(f"{func}: the tensor_map {tensor_map} of {name!r} must give each of "
                         f"its {arrays[0].ndim} axes a dimension of dev_matrix {dev_matrix} "
                         "or -1")
    grid = [1 if d == -1 else dev_matrix[-d - 1] for d in tensor_map]  # slices along each axis
    if split_shape and len(split_shape) != math.prod(grid):
        raise ValueError(f"{func}: the param_split_shape of {name!r} must have "
                         f"{math.prod(grid)} entries, but got {split_shape}")
    slices: list[Any] = [None] * math.prod(grid)
    for device, array in enumerate(arrays):
        coordinate = np.unravel_index(device, dev_matrix)
        index = int(np.ravel_multi_index(
            [0 if d == -1 else coordinate[-d - 1] for d in tensor_map], grid)) if grid else 0
        if split_shape and array.shape[0] != split_shape[index]:
            raise ValueError(f"{func}: slice {index} of {name!r} has {split_shape[index]} rows "
                             f"in the strategy, but device {device}'s has {array.shape[0]}")
        slices[index] = array
    for axis in reversed(range(len(grid))):
        n = grid[axis]
        slices = [np.concatenate(slices[i:i + n], axis=axis) for i in range(0, len(slices), n)]
    return slices[0]


def merge_sliced_parameter(sliced_parameters: list[Parameter],
                           strategy: dict[str, Any] | None = None) -> Parameter:
    """One Parameter from the slices of it that the devices of parallel training saved, in
    rank order: concatenated along axis 0 without ``strategy``, else laid out by
    ``strategy[name]`` (from build_searched_strategy). The slices must share the name, the
    dtype and the shape past axis 0; the result keeps the name, requires_grad and
    layerwise_parallel of the first."""
    func = "merge_sliced_parameter"
    if not isinstance(sliced_parameters, list):
        raise TypeError(f"{func}: sliced_parameters must be a list of Parameters, but got "
                        f"{type(sliced_parameters).__name__}")
    if not sliced_parameters:
        raise ValueError(f"{func}: sliced_parameters must not be empty")
    if strategy is not None and not isinstance(strategy, dict):
        raise TypeError(f"{func}: strategy must be a dict or None, but got "
                        f"{type(strategy).__name__}")
    for index, param in enumerate(sliced_parameters):
        if not isinstance(param, Parameter):
            raise TypeError(f"{func}: sliced_parameters[{index}] must be a Parameter, but got "
                            f"{type(param).__name__}")
    first = sliced_parameters[0]
    for index, param in enumerate(sliced_parameters[1:], 1):
        for what, got, want in (("name", param.name, first.name),
                                ("dtype", param.dtype, first.dtype),
                                ("rank", len(param.shape), len(first.shape)),
                                ("shape past axis 0", param.shape[1:], first.shape[1:])):
            if got != want:
                raise ValueError(f"{func}: the slices must share the name, dtype and shape "
                                 f"past axis 0, but sliced_parameters[{index}] has {what} "
                                 f"{got!r} and sliced_parameters[0] {want!r}")
    arrays = [param.asnumpy() for param in sliced_parameters]
    if strategy:
        if first.name not in strategy:
            raise KeyError(f"{func}: the strategy has no layout for parameter {first.name!r}")
        data = _merge_by_layout(func, first.name, arrays, strategy[first.name])
    elif first.ndim == 0:
        raise ValueError(f"{func}: 0-d parameters (here {first.name!r}) have no axis 0 to "
                         "concatenate along")
    else:
        data = np.concatenate(arrays)
    return Parameter(Tensor(data, first.dtype), first.name, first.requires_grad,
                     first.layerwise_parallel)


# -- ops.Print to a file (print_file_path) --------------------------------------------------------
def print_message(items: Sequence[Tensor | str]) -> bytes:
    """One ``Print`` message: a ``desc`` per string, a ``TensorProto`` per Tensor."""
    message = Print()
    for item in items:
        value = message.value.add()
        if isinstance(item, Tensor):
            record = _record("", item)
            value.tensor.dims.extend(record.dims)
            value.tensor.tensor_type = record.tensor_type
            value.tensor.tensor_content = record.content
        else:
            value.desc = item
    return message.SerializeToString()


def parse_print(print_file_name: str | os.PathLike) -> list[Tensor | str]:
    """What ``ops.Print`` wrote to ``print_file_path``: its strings and Tensors, in order, as
    ``mindspore.parse_print``."""
    path = os.fspath(print_file_name)
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        raise ValueError(f"parse_print: the print file {path!r} does not exist or is empty")
    message = _parsed("parse_print", path, Print(), "a print file (truncated or corrupted)")
    items: list[Tensor | str] = []
    for number, value in enumerate(message.value):
        if value.HasField("tensor"):
            items.append(Tensor(_decode_array(f"print file {path!r}: item {number}",
                                              [value.tensor])))
        else:
            items.append(value.desc)
    return items
