"""SummaryRecord and SummaryCollector write TFRecord-framed Event protocol buffers (TensorBoard's
schema); read back here with protobuf classes built from a descriptor (independent of the
writer's encoder) and PNGs decoded with Pillow. The summary operators stage values that
``record`` writes, in both modes."""

from __future__ import annotations

import io
import struct
import warnings

import numpy as np
import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

import ember as ms
from ember import context, nn, ops
from ember import dataset as ds
from ember.train.callback import SummaryCollector
from ember.train.summary import SummaryRecord, crc32c
from ember.train.summary.summary_record import SummaryRecord as SummaryRecordByPath

_F = descriptor_pb2.FieldDescriptorProto


def _event_class():
    proto = descriptor_pb2.FileDescriptorProto(name="test_event.proto", package="test",
                                               syntax="proto3")

    def message(name, *fields):
        msg = proto.message_type.add(name=name)
        for field_name, number, kind, *rest in fields:
            label = _F.LABEL_REPEATED if rest and rest[0] == "repeated" else _F.LABEL_OPTIONAL
            type_name = rest[-1] if rest and rest[-1].startswith(".") else None
            msg.field.add(name=field_name, number=number, type=kind, label=label,
                          **({"type_name": type_name} if type_name else {}))

    message("Image", ("height", 1, _F.TYPE_INT32), ("width", 2, _F.TYPE_INT32),
            ("colorspace", 3, _F.TYPE_INT32), ("encoded_image_string", 4, _F.TYPE_BYTES))
    message("Histogram", ("min", 1, _F.TYPE_DOUBLE), ("max", 2, _F.TYPE_DOUBLE),
            ("num", 3, _F.TYPE_DOUBLE), ("sum", 4, _F.TYPE_DOUBLE),
            ("sum_squares", 5, _F.TYPE_DOUBLE), ("bucket_limit", 6, _F.TYPE_DOUBLE, "repeated"),
            ("bucket", 7, _F.TYPE_DOUBLE, "repeated"))
    message("Dim", ("size", 1, _F.TYPE_INT64))
    message("Shape", ("dim", 2, _F.TYPE_MESSAGE, "repeated", ".test.Dim"))
    message("TensorProto", ("dtype", 1, _F.TYPE_INT32), ("tensor_shape", 2, _F.TYPE_MESSAGE,
                                                          ".test.Shape"),
            ("tensor_content", 4, _F.TYPE_BYTES))
    message("Value", ("tag", 1, _F.TYPE_STRING), ("simple_value", 2, _F.TYPE_FLOAT),
            ("image", 4, _F.TYPE_MESSAGE, ".test.Image"),
            ("histo", 5, _F.TYPE_MESSAGE, ".test.Histogram"),
            ("tensor", 8, _F.TYPE_MESSAGE, ".test.TensorProto"))
    message("Summary", ("value", 1, _F.TYPE_MESSAGE, "repeated", ".test.Value"))
    message("Event", ("wall_time", 1, _F.TYPE_DOUBLE), ("step", 2, _F.TYPE_INT64),
            ("file_version", 3, _F.TYPE_STRING), ("summary", 5, _F.TYPE_MESSAGE, ".test.Summary"))
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


def _values(event):
    return {v.tag: v for v in event.summary.value}


def _tensor(value):
    shape = [d.size for d in value.tensor.tensor_shape.dim]
    dtype = {1: "<f4", 3: "<i4", 9: "<i8"}[value.tensor.dtype]
    return np.frombuffer(value.tensor.tensor_content, dtype).reshape(shape)


def test_crc32c_check_value():
    assert crc32c(b"123456789") == 0xE3069283  # the CRC-32C catalogue's check value


def test_summary_record_writes_scalars(tmp_path):
    assert SummaryRecordByPath is SummaryRecord
    with SummaryRecord(tmp_path) as record:
        record.add_value("scalar", "loss", ms.Tensor(np.float32(0.5)))
        record.add_value("scalar", "acc", ms.Tensor(np.array([0.75])))
        assert record.record(3)
        assert record.record(4)  # nothing staged: nothing written
        path = record.log_dir
    assert ".out.tfevents.summary." in path and path.endswith("_MS")
    first, second = read_events(path)
    assert first.file_version == "brain.Event:2"
    assert second.step == 3 and abs(second.wall_time - first.wall_time) < 60
    assert {v.tag: v.simple_value for v in second.summary.value} == {"loss": 0.5, "acc": 0.75}


def test_summary_record_writes_tensors_histograms_images(tmp_path):
    from PIL import Image

    grey = np.array([[0, 0.5, 1], [1, 0.5, 0]], np.float32)  # in [0, 1]: scaled by 255
    with SummaryRecord(tmp_path) as record:
        record.add_value("tensor", "t", ms.Tensor(np.array([[1, -2], [3, 4]], np.int32)))
        record.add_value("histogram", "h", ms.Tensor(np.array([[1, 2, 3], [4, 5, np.nan]])))
        record.add_value("image", "img", ms.Tensor(np.stack([grey, 1 - grey])[:, None]))
        record.record(7)
    values = _values(read_events(record.log_dir)[1])
    np.testing.assert_array_equal(_tensor(values["t"]), [[1, -2], [3, 4]])
    histo = values["h"].histo  # 5 finite values: 2 buckets over [1, 5]
    assert (histo.min, histo.max, histo.num, histo.sum, histo.sum_squares) == (1, 5, 5, 15, 55)
    assert list(histo.bucket_limit) == [3, 5] and list(histo.bucket) == [2, 3]
    image = values["img"].image
    assert (image.height, image.width, image.colorspace) == (2, 6, 3)
    pixels = np.asarray(Image.open(io.BytesIO(image.encoded_image_string)))
    expected = np.concatenate([grey, 1 - grey], axis=1) * 255
    np.testing.assert_array_equal(pixels, np.repeat(expected.astype(np.uint8)[..., None], 3, 2))


def test_summary_record_errors(tmp_path):
    record = SummaryRecord(tmp_path)
    with pytest.raises(ValueError, match="plugin 'graph' is not supported by ember"):
        record.add_value("graph", "x", 1.0)
    with pytest.raises(ValueError, match="no such plugin 'images'"):
        record.add_value("images", "x", ms.Tensor(1.0))
    with pytest.raises(TypeError, match="expect the value of 'v' to be Tensor, but got float"):
        record.add_value("scalar", "v", 1.0)
    with pytest.raises(ValueError, match="the scalar 'v' holds 3 values"):
        record.add_value("scalar", "v", ms.Tensor(np.ones(3)))
    with pytest.raises(ValueError, match="the image 'v' must be a non-empty NCHW tensor"):
        record.add_value("image", "v", ms.Tensor(np.ones((1, 2, 4, 4))))
    with pytest.raises(ValueError, match="the histogram 'v' must have rank 1 or more"):
        record.add_value("histogram", "v", ms.Tensor(1.0))
    with pytest.raises(TypeError, match="step must be an int, but got 'str'"):
        record.record("str")
    record.close()
    with pytest.raises(RuntimeError, match="is closed"):
        record.record(1)
    with pytest.raises(TypeError, match="raise_exception must be a bool"):
        SummaryRecord(tmp_path, raise_exception=None)


class _SummaryNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scalar, self.tensor = ops.ScalarSummary(), ops.TensorSummary()
        self.histogram, self.image = ops.HistogramSummary(), ops.ImageSummary()

    def construct(self, x):
        y = x * 2
        self.scalar("s", y.sum())
        self.tensor("t", y)
        self.histogram("h", y)
        self.image("i", y.reshape((1, 1, 2, 2)))
        return y


@pytest.mark.parametrize("mode", [context.GRAPH_MODE, context.PYNATIVE_MODE])
def test_summary_ops_stage_values_that_record_writes(tmp_path, mode):
    context.set_context(mode=mode)
    net = _SummaryNet()
    with SummaryRecord(tmp_path) as record:
        for step in (1, 2):
            net(ms.Tensor(np.array([[0, 1], [2, 3]], np.float32) * step))
            record.record(step)
        record.set_mode("eval")  # the operators' values wait for a 'train' record
        net(ms.Tensor(np.zeros((2, 2), np.float32)))
        record.record(3)
    events = read_events(record.log_dir)[1:]
    assert [e.step for e in events] == [1, 2]
    for step, event in zip((1, 2), events, strict=True):
        values = _values(event)
        assert sorted(values) == ["h", "i", "s", "t"]
        assert values["s"].simple_value == 12 * step
        np.testing.assert_array_equal(_tensor(values["t"]), [[0, 2 * step], [4 * step, 6 * step]])
        assert values["h"].histo.num == 4 and values["h"].histo.max == 6 * step
        assert (values["i"].image.height, values["i"].image.width) == (2, 2)


@pytest.mark.parametrize("mode", [context.GRAPH_MODE, context.PYNATIVE_MODE])
def test_summary_ops_validate_name_and_value(mode):
    context.set_context(mode=mode)

    class Net(nn.Cell):
        def __init__(self, op, name, value):
            super().__init__()
            self.op, self.name_, self.value = op, name, value

        def construct(self, x):
            self.op(self.name_, self.value)
            return x

    x, scalar = ms.Tensor(np.ones(2, np.float32)), ms.Tensor(1.0)
    cases = [(ops.ScalarSummary(), None, scalar, TypeError, "the 'name' should be str"),
             (ops.ScalarSummary(), "", scalar, ValueError, "should be valid string"),
             (ops.ScalarSummary(), "s", 1.0, TypeError, "'value' should be Tensor"),
             (ops.ScalarSummary(), "s", x, ValueError, "should be \\[\\] or \\[1\\]"),
             (ops.ImageSummary(), "s", x, ValueError, "dimension of 'value' should be 4"),
             (ops.TensorSummary(), "s", scalar, ValueError, "should not be \\[\\]"),
             (ops.HistogramSummary(), "s", scalar, ValueError, "should not be \\[\\]")]
    for op, name, value, error, message in cases:
        with pytest.raises(error, match=f"For '{op.name}', .*{message}"):
            Net(op, name, value)(x)
    assert ops.ImageSummary().attrs == {"side_effect_io": True}


def test_summary_collector_records_loss_and_eval_metrics(tmp_path):
    context.set_context(mode=context.PYNATIVE_MODE)

    class Net(nn.Dense):
        def __init__(self):
            super().__init__(2, 1)
            self.summary, self.tensor = ops.ScalarSummary(), ops.TensorSummary()

        def construct(self, x):
            out = super().construct(x)
            self.summary("out", out.mean())
            self.tensor("outs", out)
            return out

    net = Net()
    data = ds.NumpySlicesDataset({"x": np.ones((8, 2), np.float32),
                                  "y": np.zeros((8, 1), np.float32)}, shuffle=False).batch(2)
    model = ms.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9),
                     metrics={"mae"})
    collector = SummaryCollector(str(tmp_path), collect_freq=3, collect_tensor_freq=4)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.train(2, data, callbacks=[collector], dataset_sink_mode=False)
        result = model.eval(data, callbacks=[collector], dataset_sink_mode=False)
    assert any("are not collected" in str(w.message) for w in caught)
    (path,) = tmp_path.iterdir()
    events = read_events(path)[1:]
    # the first step, then every third, and TensorSummary's every fourth
    assert [(e.step, sorted(_values(e))) for e in events[:-1]] == [
        (1, ["loss/auto", "out", "outs"]), (3, ["loss/auto", "out"]), (4, ["outs"]),
        (6, ["loss/auto", "out"]), (8, ["outs"])]
    for event in (events[0], events[1], events[3]):
        values = _values(event)
        # the network's output is the loss's input: MSELoss against zeros is its square
        np.testing.assert_allclose(values["out"].simple_value ** 2,
                                   values["loss/auto"].simple_value, rtol=1e-5)
    assert events[-1].step == 8 and sorted(_values(events[-1])) == ["eval/mae"]
    np.testing.assert_allclose(events[-1].summary.value[0].simple_value, result["mae"],
                               rtol=1e-6)
    with pytest.raises(ValueError, match="unknown collect_specified_data keys \\['collect_x'\\]"):
        SummaryCollector(str(tmp_path), collect_specified_data={"collect_x": True})
