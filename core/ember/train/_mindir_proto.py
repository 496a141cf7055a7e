"""MindSpore's MindIR messages (``mind_ir.proto``, proto2, package ``mind_ir``), the fields
ember writes and reads, built at import time from a descriptor (no protoc) in a private pool.

    ModelProto     ir_version=1 producer_name=2 producer_version=3 model_version=5 graph=7
                   little_endian=10 primitives=12 mind_ir_version=13
    GraphProto     node=1 name=2 parameter=3 input=5 output=6 attribute=8
    NodeProto      input=1 output=2 name=3 op_type=4 attribute=5 domain=7 node_attr=8
    AttributeProto name=1 f=2 i=3 d=4 s=5 ints=10 strings=11 tensors=12 type=16 values=17
    TensorProto    dims=1 data_type=2 name=7 raw_data=9 ref_key=13
    ValueInfoProto name=1 tensor=2
    PrimitiveProto name=1 op_type=2 attribute=3 instance_name=4 prim_type=5
"""

from __future__ import annotations

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

__all__ = ["AttributeProto", "ModelProto"]

_F = descriptor_pb2.FieldDescriptorProto
_OPT, _REP = _F.LABEL_OPTIONAL, _F.LABEL_REPEATED
_TYPES = {"string": _F.TYPE_STRING, "bytes": _F.TYPE_BYTES, "bool": _F.TYPE_BOOL,
          "int64": _F.TYPE_INT64, "int32": _F.TYPE_INT32, "float": _F.TYPE_FLOAT,
          "double": _F.TYPE_DOUBLE}

#: AttributeProto.AttributeType: the values ember uses.
ATTRIBUTE_TYPES = {"FLOAT": 1, "INT64": 7, "STRING": 8, "BOOL": 9, "DOUBLE": 11, "TENSORS": 19,
                   "TUPLE": 20, "LIST": 21, "UMONAD": 23, "NONE": 25}


def _message(file: descriptor_pb2.FileDescriptorProto, name: str,
             fields: list[tuple[str, int, int, str]]) -> descriptor_pb2.DescriptorProto:
    message = file.message_type.add(name=name)
    for field_name, number, label, kind in fields:
        field = message.field.add(name=field_name, number=number, label=label)
        if kind in _TYPES:
            field.type = _TYPES[kind]
        elif kind.startswith("enum:"):
            field.type, field.type_name = _F.TYPE_ENUM, kind[5:]
        else:
            field.type, field.type_name = _F.TYPE_MESSAGE, f".mind_ir.{kind}"
    return message


def _file_descriptor() -> descriptor_pb2.FileDescriptorProto:
    file = descriptor_pb2.FileDescriptorProto(name="mind_ir.proto", package="mind_ir",
                                              syntax="proto2")
    attribute = _message(file, "AttributeProto", [
        ("name", 1, _OPT, "string"), ("f", 2, _OPT, "float"), ("i", 3, _OPT, "int64"),
        ("d", 4, _OPT, "double"), ("s", 5, _OPT, "bytes"), ("ints", 10, _REP, "int64"),
        ("strings", 11, _REP, "bytes"), ("tensors", 12, _REP, "TensorProto"),
        ("type", 16, _OPT, "enum:.mind_ir.AttributeProto.AttributeType"),
        ("values", 17, _REP, "AttributeProto")])
    kinds = attribute.enum_type.add(name="AttributeType")
    kinds.value.add(name="UNDEFINED", number=0)
    for name, number in ATTRIBUTE_TYPES.items():
        kinds.value.add(name=name, number=number)
    _message(file, "ValueInfoProto", [("name", 1, _OPT, "string"),
                                      ("tensor", 2, _REP, "TensorProto")])
    _message(file, "NodeProto", [
        ("input", 1, _REP, "string"), ("output", 2, _REP, "string"), ("name", 3, _OPT, "string"),
        ("op_type", 4, _OPT, "string"), ("attribute", 5, _REP, "AttributeProto"),
        ("domain", 7, _OPT, "string"), ("node_attr", 8, _REP, "AttributeProto")])
    _message(file, "ModelProto", [
        ("ir_version", 1, _OPT, "string"), ("producer_name", 2, _OPT, "string"),
        ("producer_version", 3, _OPT, "string"), ("model_version", 5, _OPT, "string"),
        ("graph", 7, _OPT, "GraphProto"), ("little_endian", 10, _OPT, "bool"),
        ("primitives", 12, _REP, "PrimitiveProto"), ("mind_ir_version", 13, _OPT, "int32")])
    _message(file, "GraphProto", [
        ("node", 1, _REP, "NodeProto"), ("name", 2, _OPT, "string"),
        ("parameter", 3, _REP, "TensorProto"), ("input", 5, _REP, "ValueInfoProto"),
        ("output", 6, _REP, "ValueInfoProto"), ("attribute", 8, _REP, "AttributeProto")])
    _message(file, "TensorProto", [
        ("dims", 1, _REP, "int64"), ("data_type", 2, _OPT, "int32"), ("name", 7, _OPT, "string"),
        ("raw_data", 9, _OPT, "bytes"), ("ref_key", 13, _OPT, "string")])
    primitive = _message(file, "PrimitiveProto", [
        ("name", 1, _OPT, "string"), ("op_type", 2, _OPT, "string"),
        ("attribute", 3, _REP, "AttributeProto"), ("instance_name", 4, _OPT, "string"),
        ("prim_type", 5, _OPT, "enum:.mind_ir.PrimitiveProto.PrimType")])
    prim_types = primitive.enum_type.add(name="PrimType")
    prim_types.value.add(name="PRIMITIVE", number=1)
    prim_types.value.add(name="PRIMITIVE_FUNCTION", number=2)
    return file


_POOL = descriptor_pool.DescriptorPool()
_POOL.Add(_file_descriptor())
ModelProto = message_factory.GetMessageClass(_POOL.FindMessageTypeByName("mind_ir.ModelProto"))
AttributeProto = message_factory.GetMessageClass(
    _POOL.FindMessageTypeByName("mind_ir.AttributeProto"))
