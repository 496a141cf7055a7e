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
``Checkpoint`` or ``TensorProto`` in protobuf's default pool.
"""

from __future__ import annotations

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError

__all__ = ["Checkpoint", "DecodeError", "Print", "TensorProto"]

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
