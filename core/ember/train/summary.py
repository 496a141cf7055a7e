"""``SummaryRecord``: scalars written as an event file that TensorBoard and MindInsight read.

The file is a sequence of records (TFRecord framing: length, masked CRC-32C of the length, the
bytes, their masked CRC-32C), each an ``Event`` protocol buffer: the first names the file version,
the others hold a step, its wall time and a ``Summary`` of tagged scalar values.
"""

from __future__ import annotations

import os
import socket
import struct
import time
from typing import Any

import numpy as np

from ember.common.tensor import Tensor

__all__ = ["SummaryRecord"]


def _crc32c_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_CRC_TABLE = _crc32c_table()


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli), as TFRecord frames use it."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _CRC_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def _masked_crc(data: bytes) -> bytes:
    crc = crc32c(data)
    return struct.pack("<I", (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF)


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    """A length-delimited protobuf field."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _event(wall_time: float, step: int, *, file_version: str | None = None,
           scalars: dict[str, float] | None = None) -> bytes:
    """An ``Event`` message: wall_time = 1 (double), step = 2 (int64), file_version = 3,
    summary = 5 (``Summary``: value = 1, each ``Value``: tag = 1, simple_value = 2 (float))."""
    body = b"\x09" + struct.pack("<d", wall_time) + b"\x10" + _varint(step & (2**64 - 1))
    if file_version is not None:
        body += _field(3, file_version.encode())
    if scalars:
        values = b"".join(_field(1, _field(1, tag.encode()) + b"\x15" + struct.pack("<f", v))
                          for tag, v in scalars.items())
        body += _field(5, values)
    return body


def _record(data: bytes) -> bytes:
    length = struct.pack("<Q", len(data))
    return length + _masked_crc(length) + data + _masked_crc(data)


def _scalar(name: str, value: Any) -> float:
    array = value.asnumpy() if isinstance(value, Tensor) else np.asarray(value)
    if array.size != 1 or array.dtype.kind not in "biuf":
        raise ValueError(f"SummaryRecord.add_value: the scalar '{name}' must be one number, but "
                         f"got an array of shape {list(array.shape)} and dtype {array.dtype}")
    return float(array.reshape(()))


class SummaryRecord:
    """Writes summaries to ``log_dir/{file_prefix}.out.tfevents.summary.{time}.{host}{suffix}``
    (MindSpore writes ``.out.events.summary.``; "tfevents" lets TensorBoard find the file, and
    MindInsight still matches ``summary.{time}``):
    ``add_value('scalar', name, value)`` stages a value, ``record(step)`` writes the staged
    values as one event. Use it as a context manager, or call ``close()``."""

    def __init__(self, log_dir: str | os.PathLike, file_prefix: str = "events",
                 file_suffix: str = "_MS", network: Any = None,
                 max_file_size: int | None = None, raise_exception: bool = False,
                 export_options: Any = None) -> None:
        for name, value in (("file_prefix", file_prefix), ("file_suffix", file_suffix)):
            if not isinstance(value, str):
                raise TypeError(f"SummaryRecord: {name} must be a str, but got {value!r}")
        if export_options is not None:
            raise ValueError("SummaryRecord: export_options (tensor export) is not supported by "
                             "ember; pass None")
        os.makedirs(log_dir, exist_ok=True)
        name = (f"{file_prefix}.out.tfevents.summary.{int(time.time())}."
                f"{socket.gethostname()}{file_suffix}")
        self.log_dir = os.fspath(log_dir)
        self.file_path = os.path.join(self.log_dir, name)
        self.max_file_size = max_file_size
        self._staged: dict[str, float] = {}
        self._mode = "train"
        self._file: Any = open(self.file_path, "wb")  # noqa: SIM115 (closed by close())
        self._write(_event(time.time(), 0, file_version="brain.Event:2"))

    def _write(self, data: bytes) -> None:
        if self._file is None:
            raise RuntimeError(f"SummaryRecord: {self.file_path} is closed")
        record = _record(data)
        if self.max_file_size is not None and self._file.tell() + len(record) > (
                self.max_file_size):
            raise RuntimeError(f"SummaryRecord: writing {self.file_path} past max_file_size="
                               f"{self.max_file_size} bytes")
        self._file.write(record)

    def set_mode(self, mode: str) -> None:
        if mode not in ("train", "eval"):
            raise ValueError(f"SummaryRecord.set_mode: mode must be 'train' or 'eval', but got "
                             f"{mode!r}")
        self._mode = mode

    def add_value(self, plugin: str, name: str, value: Any) -> None:
        """Stage ``value`` under the tag ``name``; ember writes the 'scalar' plugin."""
        if plugin != "scalar":
            raise ValueError(f"SummaryRecord.add_value: plugin {plugin!r} is not supported by "
                             "ember; supported: 'scalar'")
        if not isinstance(name, str) or not name:
            raise ValueError(f"SummaryRecord.add_value: name must be a non-empty str, but got "
                             f"{name!r}")
        self._staged[name] = _scalar(name, value)

    def record(self, step: int, train_network: Any = None, plugin_filter: Any = None) -> bool:
        """Write the staged values as the event of ``step``; True when something was written."""
        if isinstance(step, bool) or not isinstance(step, int) or step < 0:
            raise ValueError(f"SummaryRecord.record: step must be an int >= 0, but got {step!r}")
        if not self._staged:
            return False
        self._write(_event(time.time(), step, scalars=self._staged))
        self._staged = {}
        return True

    def flush(self) -> None:
        if self._file is not None:
            self._file.flush()

    def close(self) -> None:
        if getattr(self, "_file", None) is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> SummaryRecord:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()
