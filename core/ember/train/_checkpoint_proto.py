"""MindSpore's checkpoint messages, built at import time from a descriptor (no protoc).

The schema is MindSpore's ``mindspore/ccsrc/utils/checkpoint.proto`` (proto2, no package)::

    message Checkpoint {
        message Value {
            required string tag = 1;
            required TensorProto tensor = 2;
        }
        repeated Value value = 1;
    }
    message TensorProto {
        repeated int64 dims = 1;
        required string tensor_type = 2;
        required bytes tensor_content = 3;
    }

``ops.Print`` writes MindSpore's ``print.proto`` message (read by ``parse_print``), whose
``TensorProto`` is the same::

    message Print {
        message Value {
            oneof value {
                string desc = 1;
                TensorProto tensor = 2;
            }
        }
        repeated Value value = 1;
    }

The classes live in a private descriptor pool so they never clash with another library's
``Checkpoint`` or ``TensorProto`` in protobuf's default pool. ``load_checkpoint`` does not use
them: :func:`read_checkpoint` reads the wire format straight from a memory map, so tensor
contents are never copied before they become arrays.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError

__all__ = ["Checkpoint", "CheckpointFormatError", "DecodeError", "Print", "TensorProto",
           "TensorView", "read_checkpoint"]

_F = descriptor_pb2.FieldDescriptorProto


def _field(message: descriptor_pb2.DescriptorProto, name: str, number: int, kind: int,
           label: int, type_name: str = "", oneof: int | None = None) -> None:
    field = message.field.add(name=name, number=number, type=kind, label=label)
    if type_name:
        field.type_name = type_name
    if oneof is not None:
        field.oneof_index = oneof


def _file_descriptor() -> descriptor_pb2.FileDescriptorProto:
    file = descriptor_pb2.FileDescriptorProto(name="checkpoint.proto", syntax="proto2")
    checkpoint = file.message_type.add(name="Checkpoint")
    value = checkpoint.nested_type.add(name="Value")
    _field(value, "tag", 1, _F.TYPE_STRING, _F.LABEL_REQUIRED)
    _field(value, "tensor", 2, _F.TYPE_MESSAGE, _F.LABEL_REQUIRED, ".TensorProto")
    _field(checkpoint, "value", 1, _F.TYPE_MESSAGE, _F.LABEL_REPEATED, ".Checkpoint.Value")
    tensor = file.message_type.add(name="TensorProto")
    _field(tensor, "dims", 1, _F.TYPE_INT64, _F.LABEL_REPEATED)
    _field(tensor, "tensor_type", 2, _F.TYPE_STRING, _F.LABEL_REQUIRED)
    _field(tensor, "tensor_content", 3, _F.TYPE_BYTES, _F.LABEL_REQUIRED)
    printed = file.message_type.add(name="Print")
    item = printed.nested_type.add(name="Value")
    item.oneof_decl.add(name="value")
    _field(item, "desc", 1, _F.TYPE_STRING, _F.LABEL_OPTIONAL, oneof=0)
    _field(item, "tensor", 2, _F.TYPE_MESSAGE, _F.LABEL_OPTIONAL, ".TensorProto", oneof=0)
    _field(printed, "value", 1, _F.TYPE_MESSAGE, _F.LABEL_REPEATED, ".Print.Value")
    return file


_POOL = descriptor_pool.DescriptorPool()
_POOL.Add(_file_descriptor())
Checkpoint = message_factory.GetMessageClass(_POOL.FindMessageTypeByName("Checkpoint"))
TensorProto = message_factory.GetMessageClass(_POOL.FindMessageTypeByName("TensorProto"))
Print = message_factory.GetMessageClass(_POOL.FindMessageTypeByName("Print"))


# -- reading a Checkpoint from a buffer without copies -------------------------------------------
class TensorView(NamedTuple):
    """One ``TensorProto`` read from a buffer: its ``tensor_content`` is a view of it."""

    dims: list[int]
    tensor_type: str
    tensor_content: memoryview


class CheckpointFormatError(ValueError):
    """The buffer is not a ``Checkpoint`` message: says what is wrong and where."""


def read_checkpoint(buffer: memoryview) -> list[tuple[str, TensorView]]:
    """The ``(tag, tensor)`` of each ``Checkpoint.Value`` in ``buffer`` (a memory map of a
    ``.ckpt`` file), in order. Tensor contents are views of ``buffer``, never copied; unknown
    fields are skipped, as protobuf does; a missing required field, a wrong wire type or a
    length past the end raises :class:`CheckpointFormatError`."""
    values = []
    for number, wire, start, end in _fields(buffer, 0, len(buffer), "Checkpoint"):
        if number == 1:
            _expect(wire, 2, "Checkpoint.value")
            values.append(_value(buffer, start, end, len(values)))
    return values


def _value(buffer: memoryview, start: int, end: int, index: int) -> tuple[str, TensorView]:
    tag: Any = None
    dims: list[int] = []
    tensor_type: Any = None
    content: Any = None
    seen_tensor = False
    for number, wire, begin, stop in _fields(buffer, start, end, f"value[{index}]"):
        if number == 1:
            _expect(wire, 2, "Value.tag")
            tag = bytes(buffer[begin:stop])
        elif number == 2:
            _expect(wire, 2, "Value.tensor")
            seen_tensor = True
            for field, kind, a, b in _fields(buffer, begin, stop, f"value[{index}].tensor"):
                if field == 1 and kind == 0:
                    dims.append(_signed(buffer, a))
                elif field == 1:
                    _expect(kind, 2, "TensorProto.dims")
                    dims.extend(_packed(buffer, a, b))
                elif field == 2:
                    _expect(kind, 2, "TensorProto.tensor_type")
                    tensor_type = bytes(buffer[a:b])
                elif field == 3:
                    _expect(kind, 2, "TensorProto.tensor_content")
                    content = buffer[a:b]
    missing = [] if tag is not None else ["tag"]
    if not seen_tensor:
        missing.append("tensor")
    missing += [f"tensor.{name}" for name, found in (("tensor_type", tensor_type),
                                                     ("tensor_content", content))
                if seen_tensor and found is None]
    if missing:
        raise CheckpointFormatError(f"required fields are missing "
                                    f"({', '.join(f'value[{index}].{m}' for m in missing)})")
    try:
        return tag.decode("utf-8"), TensorView(dims, tensor_type.decode("utf-8"), content)
    except UnicodeDecodeError:
        raise CheckpointFormatError(f"value[{index}]: the tag {tag!r:.60} or its tensor_type "
                                    "is not a non-empty UTF-8 name") from None


def _expect(wire: int, expected: int, field: str) -> None:
    if wire != expected:
        raise CheckpointFormatError(f"{field} has wire type {wire}, not {expected}")


def _varint(buffer: memoryview, pos: int, end: int) -> tuple[int, int]:
    result = shift = 0
    while pos < end and shift < 70:
        byte = buffer[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7
    raise CheckpointFormatError("a varint runs past the end of its message")


def _signed(buffer: memoryview, pos: int) -> int:
    value = _varint(buffer, pos, len(buffer))[0] & (2**64 - 1)
    return value - 2**64 if value >= 2**63 else value


def _packed(buffer: memoryview, pos: int, end: int) -> list[int]:
    found = []
    while pos < end:
        value, pos = _varint(buffer, pos, end)
        value &= 2**64 - 1
        found.append(value - 2**64 if value >= 2**63 else value)
    return found


def _fields(buffer: memoryview, pos: int, end: int,
            where: str) -> Iterator[tuple[int, int, int, int]]:
    """``(field number, wire type, start, end)`` of each field of the message in
    ``buffer[pos:end]``; for a varint field, start is where the varint begins."""
    while pos < end:
        key, pos = _varint(buffer, pos, end)
        number, wire = key >> 3, key & 7
        if wire == 0:
            start = pos
            pos = _varint(buffer, pos, end)[1]
        elif wire == 2:
            length, start = _varint(buffer, pos, end)
            pos = start + length
        elif wire in (1, 5):
            start, pos = pos, pos + (8 if wire == 1 else 4)
        else:
            raise CheckpointFormatError(f"{where}: field {number} has wire type {wire}, which "
                                        "checkpoints do not use")
        if number == 0 or pos > end:
            raise CheckpointFormatError(f"{where}: field {number} runs past the end "
                                        f"(byte {pos} of {end}): the file is truncated")
        yield number, wire, start, pos
