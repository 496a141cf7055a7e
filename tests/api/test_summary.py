"""SummaryRecord and SummaryCollector write TFRecord-framed Event protocol buffers; read back
here with protobuf classes built from a descriptor (independent of the writer's encoder)."""

from __future__ import annotations

import struct
import warnings

import numpy as np
import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

import ember as ms
from ember import context, nn
from ember import dataset as ds
from ember.train.callback import SummaryCollector
from ember.train.summary import SummaryRecord, crc32c

_F = descriptor_pb2.FieldDescriptorProto


def _event_class():
    proto = descriptor_pb2.FileDescriptorProto(name="test_event.proto", package="test",
                                               syntax="proto3")
    value = proto.message_type.add(name="Value")
    value.field.add(name="tag", number=1, type=_F.TYPE_STRING, label=_F.LABEL_OPTIONAL)
    value.field.add(name="simple_value", number=2, type=_F.TYPE_FLOAT, label=_F.LABEL_OPTIONAL)
    summary = proto.message_type.add(name="Summary")
    summary.field.add(name="value", number=1, type=_F.TYPE_MESSAGE, label=_F.LABEL_REPEATED,
                      type_name=".test.Value")
    event = proto.message_type.add(name="Event")
    event.field.add(name="wall_time", number=1, type=_F.TYPE_DOUBLE, label=_F.LABEL_OPTIONAL)
    event.field.add(name="step", number=2, type=_F.TYPE_INT64, label=_F.LABEL_OPTIONAL)
    event.field.add(name="file_version", number=3, type=_F.TYPE_STRING, label=_F.LABEL_OPTIONAL)
    event.field.add(name="summary", number=5, type=_F.TYPE_MESSAGE, label=_F.LABEL_OPTIONAL,
                    type_name=".test.Summary")
    pool = descriptor_pool.DescriptorPool()
    pool.Add(proto)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("test.Event"))


Event = _event_class()


def _masked(data: bytes) -> int:
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def read_events(path):
    events, data = [], open(path, "rb").read()
    while data:
        (length,), (length_crc,) = struct.unpack("<Q", data[:8]), struct.unpack("<I", data[8:12])
        assert length_crc == _masked(data[:8])
        body = data[12:12 + length]
        assert struct.unpack("<I", data[12 + length:16 + length])[0] == _masked(body)
        events.append(Event.FromString(body))
        data = data[16 + length:]
    return events


def test_crc32c_check_value():
    assert crc32c(b"123456789") == 0xE3069283  # the CRC-32C catalogue's check value


def test_summary_record_writes_scalars(tmp_path):
    with SummaryRecord(tmp_path) as record:
        record.add_value("scalar", "loss", ms.Tensor(np.float32(0.5)))
        record.add_value("scalar", "acc", 0.75)
        assert record.record(3)
        assert not record.record(4)  # nothing staged
        path = record.file_path
    assert ".out.tfevents.summary." in path and path.endswith("_MS")
    first, second = read_events(path)
    assert first.file_version == "brain.Event:2"
    assert second.step == 3 and abs(second.wall_time - first.wall_time) < 60
    assert {v.tag: v.simple_value for v in second.summary.value} == {"loss": 0.5, "acc": 0.75}


def test_summary_record_errors(tmp_path):
    record = SummaryRecord(tmp_path)
    with pytest.raises(ValueError, match="plugin 'image' is not supported by ember"):
        record.add_value("image", "x", 1.0)
    with pytest.raises(ValueError, match="the scalar 'v' must be one number"):
        record.add_value("scalar", "v", np.ones(3))
    record.close()
    record.add_value("scalar", "v", 1.0)
    with pytest.raises(RuntimeError, match="is closed"):
        record.record(1)


def test_summary_collector_records_loss_and_eval_metrics(tmp_path):
    context.set_context(mode=context.PYNATIVE_MODE)
    net = nn.Dense(2, 1)
    data = ds.NumpySlicesDataset({"x": np.ones((8, 2), np.float32),
                                  "y": np.zeros((8, 1), np.float32)}, shuffle=False).batch(2)
    model = ms.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9),
                     metrics={"mae"})
    collector = SummaryCollector(str(tmp_path), collect_freq=2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.train(2, data, callbacks=[collector], dataset_sink_mode=False)
        result = model.eval(data, callbacks=[collector], dataset_sink_mode=False)
    assert any("ember writes scalars only" in str(w.message) for w in caught)
    (path,) = tmp_path.iterdir()
    events = read_events(path)[1:]
    losses = [(e.step, e.summary.value[0]) for e in events[:-1]]
    assert [step for step, _ in losses] == [2, 4, 6, 8]
    assert all(v.tag == "loss/auto" for _, v in losses)
    assert events[-1].step == 8 and events[-1].summary.value[0].tag == "eval/mae"
    np.testing.assert_allclose(events[-1].summary.value[0].simple_value, result["mae"],
                               rtol=1e-6)
    with pytest.raises(ValueError, match="unknown collect_specified_data keys \\['collect_x'\\]"):
        SummaryCollector(str(tmp_path), collect_specified_data={"collect_x": True})
