"""Checkpoints in MindSpore's .ckpt format, checked against an independent protobuf wire-format
reader and writer written here (the format is MindSpore's checkpoint.proto, proto2)."""

from __future__ import annotations

import os
import pickle
import struct
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import ember
from ember import Parameter, Tensor, context, nn
from ember.train import serialization
from ember.train.serialization import load_checkpoint, load_param_into_net, save_checkpoint

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "contrib" / "lenet"))
from lenet import LeNet5  # noqa: E402

MODES = [context.PYNATIVE_MODE, context.GRAPH_MODE]


# -- an independent protobuf wire-format reader and writer ----------------------------------------
def _read_varint(buf: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(buf):
            raise EOFError("varint runs past the end")
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return result, pos


def _fields(buf: bytes) -> list[tuple[int, int, int | bytes, int, int]]:
    """(field number, wire type, value, start, end) of each field of one message."""
    pos, out = 0, []
    while pos < len(buf):
        start = pos
        key, pos = _read_varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _read_varint(buf, pos)
        elif wire == 2:
            size, pos = _read_varint(buf, pos)
            if pos + size > len(buf):
                raise EOFError("length-delimited field runs past the end")
            value, pos = buf[pos:pos + size], pos + size
        else:
            raise AssertionError(f"wire type {wire} does not occur in a checkpoint")
        out.append((number, wire, value, start, pos))
    return out


def read_ckpt(data: bytes) -> list[tuple[str, list[int], str, bytes]]:
    """Checkpoint { repeated Value value = 1 }, Value { tag = 1, TensorProto tensor = 2 },
    TensorProto { repeated int64 dims = 1, tensor_type = 2, tensor_content = 3 }."""
    entries = []
    for number, wire, value, _, _ in _fields(data):
        assert (number, wire) == (1, 2)
        value_fields = {n: v for n, _, v, _, _ in _fields(value)}
        dims, tensor_type, content = [], None, None
        for n, w, v, _, _ in _fields(value_fields[2]):
            if n == 1 and w == 0:
                dims.append(v - (1 << 64) if v >= 1 << 63 else v)
            elif n == 2:
                tensor_type = v.decode()
            elif n == 3:
                content = v
        entries.append((value_fields[1].decode(), dims, tensor_type, content))
    return entries


def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        if n < 0x80:
            return bytes(out + bytes([n]))
        out.append(n & 0x7F | 0x80)
        n >>= 7


def _len_field(number: int, payload: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def write_entry(tag: str, dims: list[int], tensor_type: str, content: bytes) -> bytes:
    """One serialized Checkpoint holding one Value, as protoc's code writes it (dims unpacked)."""
    tensor = (b"".join(_varint(1 << 3) + _varint(d) for d in dims)
              + _len_field(2, tensor_type.encode()) + _len_field(3, content))
    return _len_field(1, _len_field(1, tag.encode()) + _len_field(2, tensor))


def write_array(tag: str, array: np.ndarray, tensor_type: str) -> bytes:
    dims = list(array.shape) if array.ndim else [0]
    return write_entry(tag, dims, tensor_type, array.astype(array.dtype.newbyteorder("<"))
                       .tobytes())


# -- networks -------------------------------------------------------------------------------------
class SmallNet(nn.Cell):
    """conv1 -> bn1 -> relu -> flatten -> fc1: the layers of a LeNet plus BatchNorm."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, pad_mode="valid", has_bias=True)
        self.bn1 = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(4 * 6 * 6, 3)

    def construct(self, x):
        return self.fc1(self.flatten(self.relu(self.bn1(self.conv1(x)))))


SMALL_NAMES = ["conv1.weight", "conv1.bias", "bn1.moving_mean", "bn1.moving_variance",
               "bn1.gamma", "bn1.beta", "fc1.weight", "fc1.bias"]

DTYPES = [(ember.bool_, np.bool_), (ember.int8, np.int8), (ember.int16, np.int16),
          (ember.int32, np.int32), (ember.int64, np.int64), (ember.uint8, np.uint8),
          (ember.uint16, np.uint16), (ember.uint32, np.uint32), (ember.uint64, np.uint64),
          (ember.float16, np.float16), (ember.float32, np.float32), (ember.float64, np.float64)]


def _values(np_type, shape, seed):
    rng = np.random.default_rng(seed)
    if np_type is np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if np.issubdtype(np_type, np.integer):
        info = np.iinfo(np_type)
        return rng.integers(info.min, info.max, shape, dtype=np_type, endpoint=True)
    return rng.standard_normal(shape).astype(np_type)


class AllDtypes(nn.Cell):
    """One parameter per dtype, in shapes that include a 0-d, a (1,) and an empty tensor."""

    SHAPES = [(2, 3), (), (1,), (4,), (2, 1, 2), (0,), (3,), (2, 2), (5,), (3, 2), (2, 3, 4), ()]

    def __init__(self, seed: int) -> None:
        super().__init__()
        for i, ((_, np_type), shape) in enumerate(zip(DTYPES, self.SHAPES)):
            setattr(self, f"p{i}", Parameter(_values(np_type, shape, seed + i), name=f"p{i}"))


def _random_small_net(seed: int) -> SmallNet:
    net = SmallNet()
    rng = np.random.default_rng(seed)
    for p in net.get_parameters():
        values = rng.standard_normal(p.shape).astype(np.float32)
        p.set_data(np.abs(values) + 0.5 if p.name == "bn1.moving_variance" else values)
    return net


def _snapshot(net):
    return {p.name: p.asnumpy() for p in net.get_parameters()}


def _assert_params(net, expected):
    for p in net.get_parameters():
        np.testing.assert_array_equal(p.asnumpy(), expected[p.name], err_msg=p.name)


# -- round trips ----------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_round_trip_restores_a_network_that_then_computes_the_same(tmp_path, mode):
    context.set_context(mode=mode)
    saved, loaded = _random_small_net(1), _random_small_net(2)
    x = Tensor(np.random.default_rng(0).standard_normal((2, 1, 8, 8)).astype(np.float32))
    saved.set_train(False)
    loaded.set_train(False)
    before = loaded(x).asnumpy()  # compiled (GRAPH_MODE) before the load: must see new values
    save_checkpoint(saved, str(tmp_path / "small.ckpt"))
    params = load_checkpoint(str(tmp_path / "small.ckpt"), net=loaded)
    assert list(params) == SMALL_NAMES
    _assert_params(loaded, _snapshot(saved))
    out = loaded(x).asnumpy()
    np.testing.assert_array_equal(out, saved(x).asnumpy())
    assert not np.allclose(out, before)


def test_loaded_parameters_are_named_as_in_the_file_and_trainable(tmp_path):
    net = _random_small_net(1)
    save_checkpoint(net, str(tmp_path / "small.ckpt"))
    params = load_checkpoint(str(tmp_path / "small.ckpt"))
    assert all(isinstance(p, Parameter) and p.name == name and p.requires_grad
               for name, p in params.items())
    fresh = SmallNet()
    load_param_into_net(fresh, params)
    assert not fresh.bn1.moving_mean.requires_grad  # the net's own flags are kept
    params["fc1.bias"].set_data(np.zeros(3, np.float32))
    assert np.any(fresh.fc1.bias.asnumpy() != 0)  # the net does not alias the dict


def test_every_dtype_round_trips_exactly(tmp_path):
    saved = AllDtypes(seed=10)
    save_checkpoint(saved, str(tmp_path / "all.ckpt"))
    params = load_checkpoint(str(tmp_path / "all.ckpt"))
    for i, ((dtype, np_type), shape) in enumerate(zip(DTYPES, AllDtypes.SHAPES)):
        p = params[f"p{i}"]
        assert (p.dtype, p.shape) == (dtype, shape)
        np.testing.assert_array_equal(p.asnumpy(), _values(np_type, shape, 10 + i))
    target = AllDtypes(seed=50)
    assert load_param_into_net(target, params) == []
    _assert_params(target, _snapshot(saved))


# -- the bytes on disk ----------------------------------------------------------------------------
def test_file_bytes_are_mindspores_format(tmp_path):
    net = _random_small_net(3)
    save_checkpoint(net, str(tmp_path / "small.ckpt"), append_dict={"epoch_num": 7})
    entries = read_ckpt((tmp_path / "small.ckpt").read_bytes())
    assert [e[0] for e in entries] == [*SMALL_NAMES, "epoch_num"]
    for (_, dims, tensor_type, content), p in zip(entries, net.get_parameters()):
        assert dims == list(p.shape) and tensor_type == "Float32"
        assert content == p.asnumpy().astype("<f4").tobytes(order="C")
    assert entries[-1] == ("epoch_num", [0], "Int64", struct.pack("<q", 7))


def test_bytes_equal_an_independent_encoding(tmp_path):
    data = [("w", np.array([[1.5, -2.0, 3.25]], np.float32), "Float32"),
            ("step", np.array(9, np.int32), "Int32"),
            ("mask", np.array([True, False], np.bool_), "Bool"),
            ("h", np.arange(4, dtype=np.float16).reshape(2, 2), "Float16"),
            ("big", np.array([2**40, -3], np.int64), "Int64"),
            ("u", np.array([255, 0, 7], np.uint8), "UInt8")]
    save_checkpoint([{"name": n, "data": Tensor(a)} for n, a, _ in data], str(tmp_path / "d"))
    expected = b"".join(write_array(n, a, t) for n, a, t in data)
    assert (tmp_path / "d.ckpt").read_bytes() == expected
    # the first entry byte by byte: Value(tag "w", TensorProto(dims 1, 3, "Float32", 12 bytes))
    assert expected[:34] == (b"\x0a\x20" b"\x0a\x01w" b"\x12\x1b" b"\x08\x01\x08\x03"
                             b"\x12\x07Float32" b"\x1a\x0c" + struct.pack("<3f", 1.5, -2, 3.25))


def test_large_tensors_are_written_in_slices_and_read_back(tmp_path, monkeypatch):
    monkeypatch.setattr(serialization, "_SLICE_BYTES", 16)
    w = np.arange(10, dtype=np.float32)
    save_checkpoint([{"name": "w", "data": Tensor(w)}], str(tmp_path / "s.ckpt"))
    entries = read_ckpt((tmp_path / "s.ckpt").read_bytes())
    assert [(tag, dims, len(content)) for tag, dims, _, content in entries] == [
        ("w", [10], 16), ("w", [10], 16), ("w", [10], 8)]
    np.testing.assert_array_equal(load_checkpoint(str(tmp_path / "s.ckpt"))["w"].asnumpy(), w)


# -- files written by MindSpore (built here by hand) ----------------------------------------------
def test_loads_a_file_written_as_mindspore_writes_it(tmp_path):
    rng = np.random.default_rng(5)
    values = {p.name: rng.standard_normal(p.shape).astype(np.float32)
              for p in SmallNet().get_parameters()}
    fc1 = values["fc1.weight"].reshape(-1)
    body = b"".join(write_array(n, a, "Float32") for n, a in values.items() if n != "fc1.weight")
    # fc1.weight split in two slices, as MindSpore splits tensors over 512 MiB
    body += write_entry("fc1.weight", [3, 144], "Float32", fc1[:100].tobytes())
    body += write_entry("fc1.weight", [3, 144], "Float32", fc1[100:].tobytes())
    body += write_array("epoch_num", np.array(3, np.int64), "Int64")
    body += write_array("learning_rate", np.array(0.01, np.float32), "Float32")
    body += write_array("counts", np.array([1, 2], np.uint8), "Uint8")  # MindSpore 1.x spelling
    (tmp_path / "ms.ckpt").write_bytes(body)
    net = SmallNet()
    with pytest.warns(UserWarning, match=r"entries that the net has no parameter for: "
                                         r"\['epoch_num', 'learning_rate', 'counts'\]"):
        params = load_checkpoint(str(tmp_path / "ms.ckpt"), net=net)
    _assert_params(net, values)
    assert params["epoch_num"].shape == () and params["epoch_num"].asnumpy() == 3
    assert params["learning_rate"].dtype == ember.float32
    assert params["counts"].dtype == ember.uint8


def test_mindspore_docs_example_filter_prefix_conv1(tmp_path):
    net = LeNet5()
    save_checkpoint(net, str(tmp_path / "LeNet5-1_32.ckpt"))
    param_dict = load_checkpoint(str(tmp_path / "LeNet5-1_32.ckpt"), filter_prefix="conv1")
    assert repr(param_dict["conv2.weight"]) == (
        "Parameter (name=conv2.weight, shape=(16, 6, 5, 5), dtype=Float32, requires_grad=True)")
    with pytest.warns(UserWarning, match="not loaded"):
        assert load_param_into_net(LeNet5(), param_dict) == ["conv1.weight"]


# -- atomic writes --------------------------------------------------------------------------------
def _fail_after(monkeypatch, records: int, error: BaseException):
    original = serialization._serialize
    calls = []

    def failing(record):
        calls.append(record.name)
        if len(calls) > records:
            raise error
        return original(record)

    monkeypatch.setattr(serialization, "_serialize", failing)


def test_an_interrupted_save_leaves_the_previous_file(tmp_path, monkeypatch):
    path = tmp_path / "net.ckpt"
    save_checkpoint(_random_small_net(1), str(path))
    previous = path.read_bytes()
    _fail_after(monkeypatch, 3, OSError("No space left on device"))
    with pytest.raises(OSError, match="No space left"):
        save_checkpoint(_random_small_net(2), str(path))
    assert path.read_bytes() == previous
    assert os.listdir(tmp_path) == ["net.ckpt"]  # no temporary file left behind
    monkeypatch.undo()
    _fail_after(monkeypatch, 1, KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        save_checkpoint(_random_small_net(2), str(path))
    assert path.read_bytes() == previous and os.listdir(tmp_path) == ["net.ckpt"]
    monkeypatch.undo()
    save_checkpoint(_random_small_net(2), str(path))
    net = SmallNet()
    load_checkpoint(str(path), net=net)
    _assert_params(net, _snapshot(_random_small_net(2)))


def test_async_save_writes_the_values_of_the_call(tmp_path):
    net = _random_small_net(1)
    expected = _snapshot(net)
    save_checkpoint(net, tmp_path / "a", async_save=True)
    net.fc1.bias.set_data(np.zeros(3, np.float32))  # after the call: not in the file
    loaded = SmallNet()
    load_checkpoint(tmp_path / "a.ckpt", net=loaded)  # waits for the write
    _assert_params(loaded, expected)


def test_a_failed_async_save_is_raised_by_the_next_load(tmp_path, monkeypatch):
    _fail_after(monkeypatch, 0, OSError("disk quota exceeded"))
    # The background thread warns when the write fails, which may be before the load.
    with pytest.warns(RuntimeWarning, match="async_save"):
        save_checkpoint(_random_small_net(1), str(tmp_path / "a.ckpt"), async_save=True)
        with pytest.raises(RuntimeError, match=r"async_save=True\) of .*a\.ckpt failed: disk"):
            load_checkpoint(str(tmp_path / "a.ckpt"))
    assert os.listdir(tmp_path) == []


# -- corrupted files ------------------------------------------------------------------------------
@pytest.fixture
def saved(tmp_path):
    path = tmp_path / "good.ckpt"
    save_checkpoint(_random_small_net(1), str(path))
    net = _random_small_net(2)
    return path, path.read_bytes(), net, _snapshot(net)


def _assert_rejected(tmp_path, data, net, snapshot, match):
    bad = tmp_path / "bad.ckpt"
    bad.write_bytes(data)
    with pytest.raises(ValueError, match=rf"bad\.ckpt.*{match}"):
        load_checkpoint(str(bad), net=net)
    _assert_params(net, snapshot)


def test_truncated_files_raise_and_leave_the_net_unchanged(tmp_path, saved):
    _, data, net, snapshot = saved
    spans = [(start, end) for _, _, _, start, end in _fields(data)]
    fc1_weight = spans[SMALL_NAMES.index("fc1.weight")]
    cuts = [1, 2, spans[0][1] - 1, spans[3][0] + 5, (fc1_weight[0] + fc1_weight[1]) // 2,
            len(data) - 1]
    for cut in cuts:
        _assert_rejected(tmp_path, data[:cut], net, snapshot, "truncated or corrupted")


def test_a_file_cut_between_entries_loads_what_it_holds(tmp_path, saved):
    _, data, net, snapshot = saved
    cut = [end for _, _, _, _, end in _fields(data)][5]
    (tmp_path / "cut.ckpt").write_bytes(data[:cut])
    with pytest.raises(ValueError, match=r"strict_load=True.*\['fc1.weight', 'fc1.bias'\]"):
        load_checkpoint(str(tmp_path / "cut.ckpt"), net=net, strict_load=True)
    _assert_params(net, snapshot)
    with pytest.warns(UserWarning, match="2 parameters of the net are not loaded"):
        assert load_param_into_net(net, load_checkpoint(str(tmp_path / "cut.ckpt"))) == [
            "fc1.weight", "fc1.bias"]


def test_flipped_bytes_raise_and_leave_the_net_unchanged(tmp_path, saved):
    _, data, net, snapshot = saved
    wire_type = bytes([data[0] ^ 0x01]) + data[1:]  # field 1 as a start-group: corrupt
    _assert_rejected(tmp_path, wire_type, net, snapshot, "truncated or corrupted")
    at = data.index(b"Float32", data.index(b"fc1.bias"))
    type_name = data[:at] + b"Flaot32" + data[at + 7:]
    _assert_rejected(tmp_path, type_name, net, snapshot,
                     r"'fc1.bias' has unknown tensor_type 'Flaot32'; accepted: Bool, UInt8")
    at = data.index(b"\x08\x03\x08\x90\x01")  # fc1.weight's dims [3, 144] -> [3, 145]
    dims = data[:at] + b"\x08\x03\x08\x91\x01" + data[at + 5:]
    _assert_rejected(tmp_path, dims, net, snapshot,
                     r"'fc1.weight' \(Float32, dims \[3, 145\]\) should hold 1740 bytes, "
                     r"but holds 1728")


def test_garbage_empty_and_pickle_files_raise(tmp_path, saved):
    _, _, net, snapshot = saved
    _assert_rejected(tmp_path, b"not a checkpoint\n" * 10, net, snapshot,
                     "truncated or corrupted")
    _assert_rejected(tmp_path, b"", net, snapshot, "holds no parameters")
    marker = tmp_path / "unpickled"

    class Evil:
        def __reduce__(self):
            return (Path.touch, (marker,))

    _assert_rejected(tmp_path, pickle.dumps({"conv1.weight": Evil()}), net, snapshot, "")
    assert not marker.exists()


def test_malformed_entries_raise(tmp_path, saved):
    _, data, net, snapshot = saved
    cases = [
        (write_entry("w", [2, 3], "Float32", b"\0" * 20), r"should hold 24 bytes, but holds 20"),
        (write_entry("w", [-1], "Float32", b""), r"'w' has negative dims \[-1\]"),
        (write_entry("m", [2], "Bool", b"\x01\x07"), "'m' is Bool but holds bytes other"),
        (data + write_entry("conv1.weight", [1], "Float32", b"\0" * 4),
         "'conv1.weight' appears twice"),
        (write_entry("w", [2], "Float32", b"\0" * 8) + write_entry("w", [4], "Float32", b""),
         "'w' is split into slices whose dims or tensor_type differ"),
        (_len_field(1, _len_field(1, b"w")), r"required fields are missing \(value\[0\]"),
        (_len_field(1, _len_field(1, b"\xff\xfe") + _len_field(2, b"\x12\x00\x1a\x00")),
         "not a non-empty UTF-8 name"),
    ]
    for body, match in cases:
        _assert_rejected(tmp_path, body, net, snapshot, match)


def test_an_unknown_tensor_type_can_be_filtered_out(tmp_path):
    body = (write_entry("moments.w", [2], "BFloat16", b"\0" * 4)
            + write_array("w", np.ones(2, np.float32), "Float32"))
    (tmp_path / "bf.ckpt").write_bytes(body)
    with pytest.raises(ValueError, match="bf.ckpt: entry 'moments.w' has unknown tensor_type "
                                         "'BFloat16'"):
        load_checkpoint(str(tmp_path / "bf.ckpt"))
    assert list(load_checkpoint(str(tmp_path / "bf.ckpt"), filter_prefix="moments")) == ["w"]


# -- load_param_into_net --------------------------------------------------------------------------
def _params(**arrays):
    return {name.replace("__", "."): Parameter(a, name=name.replace("__", "."))
            for name, a in arrays.items()}


def test_a_shape_mismatch_raises_before_anything_changes():
    net = _random_small_net(1)
    snapshot = _snapshot(net)
    source = _snapshot(_random_small_net(2))
    source["fc1.bias"] = np.zeros(4, np.float32)  # the last parameter: all others come first
    parameter_dict = {k: Parameter(v, name=k) for k, v in source.items()}
    with pytest.raises(ValueError, match=r"'fc1.bias' has shape \[3\] in the net but \[4\]"):
        load_param_into_net(net, parameter_dict)
    _assert_params(net, snapshot)


def test_trailing_ones_are_dropped_as_mindspore_does():
    net = nn.Dense(2, 3)
    weight = np.arange(6, dtype=np.float32).reshape(3, 2, 1, 1)
    load_param_into_net(net, _params(weight=weight, bias=np.ones(3, np.float32)))
    np.testing.assert_array_equal(net.weight.asnumpy(), weight.reshape(3, 2))


def test_dtypes_convert_float_to_float_and_int_to_int_unless_strict():
    net = nn.Dense(2, 3)
    weight = np.arange(6, dtype=np.float64).reshape(3, 2) / 3
    with pytest.warns(UserWarning) as record:
        load_param_into_net(net, _params(weight=weight, bias=np.ones(3, np.float16)))
    assert [str(w.message) for w in record] == [
        "load_param_into_net: parameter_dict['weight'] is Float64; converted to the net's Float32",
        "load_param_into_net: parameter_dict['bias'] is Float16; converted to the net's Float32"]
    np.testing.assert_array_equal(net.weight.asnumpy(), weight.astype(np.float32))
    assert net.weight.dtype == ember.float32
    with pytest.raises(ValueError, match="'weight' is Float32 in the net but Float64 .*"
                                         "strict_load=False; nothing was loaded"):
        load_param_into_net(net, _params(weight=weight, bias=np.ones(3, np.float32)),
                            strict_load=True)
    with pytest.raises(ValueError, match="'bias' is Float32 in the net but Int32"):
        load_param_into_net(net, _params(weight=weight.astype(np.float32),
                                         bias=np.ones(3, np.int32)))
    np.testing.assert_array_equal(net.bias.asnumpy(), np.ones(3))  # from the first load
    holder = nn.Cell()
    holder.step = Parameter(np.array(1, np.int32), name="step")
    with pytest.warns(UserWarning, match="Int64; converted to the net's Int32"):
        load_param_into_net(holder, _params(step=np.array(2**31 + 5, np.int64)))
    assert holder.step.dtype == ember.int32


def test_strict_and_non_strict_reports():
    net = _random_small_net(1)
    snapshot = _snapshot(net)
    source = _params(conv1__weight=np.ones((4, 1, 3, 3), np.float32),
                     fc2__weight=np.ones(2, np.float32))
    with pytest.raises(ValueError, match=r"strict_load=True, but parameter_dict has no value "
                                         r"for \['conv1.bias', 'bn1.moving_mean'"):
        load_param_into_net(net, source, strict_load=True)
    _assert_params(net, snapshot)
    with pytest.warns(UserWarning) as record:
        missing = load_param_into_net(net, source)
    assert missing == SMALL_NAMES[1:]
    messages = [str(w.message) for w in record]
    assert any("7 parameters of the net are not loaded" in m for m in messages)
    assert any("entries that the net has no parameter for: ['fc2.weight']" in m
               for m in messages)
    np.testing.assert_array_equal(net.conv1.weight.asnumpy(), np.ones((4, 1, 3, 3)))


def test_names_match_under_a_prefix_unless_strict():
    net = nn.Dense(2, 3)
    source = _params(backbone__fc1__weight=np.ones((3, 2), np.float32),
                     backbone__fc1__bias=np.full(3, 2, np.float32))
    with pytest.warns(UserWarning, match="named 'backbone.fc1.' \\+ the net's parameter name"):
        assert load_param_into_net(net, source) == []
    np.testing.assert_array_equal(net.bias.asnumpy(), np.full(3, 2))
    with pytest.raises(ValueError, match=r"no value for \['weight', 'bias'\]"):
        load_param_into_net(nn.Dense(2, 3), source, strict_load=True)


def test_load_param_into_net_argument_errors():
    with pytest.raises(TypeError, match="'net' must be a Cell, but got dict"):
        load_param_into_net({}, {})
    with pytest.raises(TypeError, match="'parameter_dict' must be a dict .* got list"):
        load_param_into_net(nn.Dense(2, 3), [])
    with pytest.raises(TypeError, match="'weight' maps to Tensor"):
        load_param_into_net(nn.Dense(2, 3), {"weight": Tensor(np.ones((3, 2), np.float32))})
    with pytest.raises(TypeError, match="'strict_load' must be a bool, but got int"):
        load_param_into_net(nn.Dense(2, 3), {}, strict_load=1)


# -- save_checkpoint and load_checkpoint arguments ------------------------------------------------
def test_filter_prefix(tmp_path):
    entries = [{"name": n, "data": Tensor(np.ones(1, np.float32))}
               for n in ("conv1", "conv1.weight", "conv10.weight", "fc1.bias", "fc2.bias")]
    path = str(tmp_path / "f.ckpt")
    save_checkpoint(entries, path)
    assert list(load_checkpoint(path, filter_prefix="conv1")) == [
        "conv10.weight", "fc1.bias", "fc2.bias"]
    assert list(load_checkpoint(path, filter_prefix=["conv1", "fc1."])) == [
        "conv10.weight", "fc2.bias"]
    assert list(load_checkpoint(path, filter_prefix=("fc",))) == [e["name"] for e in entries]
    with pytest.raises(ValueError, match=r"f\.ckpt holds no parameters once filter_prefix"):
        load_checkpoint(path, filter_prefix=["conv", "conv1", "conv10", "fc1", "fc2"])
    with pytest.raises(TypeError, match="'filter_prefix' must be a str, list.* got 3"):
        load_checkpoint(path, filter_prefix=3)
    with pytest.raises(TypeError, match="'filter_prefix' must be a str, list"):
        load_checkpoint(path, filter_prefix=["conv1", None])
    with pytest.raises(ValueError, match="'filter_prefix' must not be an empty list"):
        load_checkpoint(path, filter_prefix=[])


def test_append_dict(tmp_path):
    path = str(tmp_path / "a.ckpt")
    save_checkpoint(nn.Dense(2, 3), path, append_dict={
        "epoch_num": 4, "lr": 0.5, "flag": True, "loss_scale": Tensor(np.float16(1024))})
    params = load_checkpoint(path)
    assert list(params) == ["weight", "bias", "epoch_num", "lr", "flag", "loss_scale"]
    assert [(params[k].dtype, params[k].shape, params[k].asnumpy().item()) for k in
            ("epoch_num", "lr", "flag", "loss_scale")] == [
        (ember.int64, (), 4), (ember.float32, (), 0.5), (ember.bool_, (), True),
        (ember.float16, (), 1024.0)]
    with pytest.raises(TypeError, match="'append_dict' must be a dict .* got list"):
        save_checkpoint(nn.Dense(2, 3), path, append_dict=[("epoch", 1)])
    with pytest.raises(TypeError, match="'append_dict' must map str to .* 'lr': str"):
        save_checkpoint(nn.Dense(2, 3), path, append_dict={"lr": "0.1"})
    with pytest.raises(ValueError, match="two entries are named 'bias'"):
        save_checkpoint(nn.Dense(2, 3), path, append_dict={"bias": 1})


def test_list_of_dicts(tmp_path):
    weight = Parameter(np.ones((2, 2), np.float32), name="ignored.name")
    save_checkpoint([{"name": "encoder.weight", "data": weight},
                     {"name": "step", "data": Tensor(np.int32(3))}], str(tmp_path / "l.ckpt"))
    params = load_checkpoint(str(tmp_path / "l.ckpt"))
    assert [(k, p.name, p.shape) for k, p in params.items()] == [
        ("encoder.weight", "encoder.weight", (2, 2)), ("step", "step", ())]
    path = str(tmp_path / "bad.ckpt")
    with pytest.raises(TypeError, match=r"save_obj\[1\] must be a dict \{'name': str, 'data'"):
        save_checkpoint([{"name": "a", "data": weight}, {"name": "b", "data": [1.0]}], path)
    with pytest.raises(TypeError, match=r"save_obj\[0\] must be a dict"):
        save_checkpoint([("a", weight)], path)
    with pytest.raises(ValueError, match="two entries are named 'a'"):
        save_checkpoint([{"name": "a", "data": weight}, {"name": "a", "data": weight}], path)
    with pytest.raises(ValueError, match="non-empty name"):
        save_checkpoint([{"name": "", "data": weight}], path)
    assert not os.path.exists(path)


def test_file_names(tmp_path):
    save_checkpoint(nn.Dense(2, 3), str(tmp_path / "model"))
    save_checkpoint(nn.Dense(2, 3), tmp_path / "other.ckpt")
    assert sorted(os.listdir(tmp_path)) == ["model.ckpt", "other.ckpt"]
    assert list(load_checkpoint(tmp_path / "model.ckpt")) == ["weight", "bias"]
    with pytest.raises(ValueError, match=r"missing\.ckpt does not exist"):
        load_checkpoint(str(tmp_path / "missing.ckpt"))
    (tmp_path / "dir.ckpt").mkdir()
    with pytest.raises(ValueError, match=r"dir\.ckpt does not exist \(it is a directory\)"):
        load_checkpoint(str(tmp_path / "dir.ckpt"))
    with pytest.raises(ValueError, match=r"model must have the extension \.ckpt"):
        load_checkpoint(str(tmp_path / "model"))


def test_save_and_load_argument_errors(tmp_path):
    net, path = nn.Dense(2, 3), str(tmp_path / "e.ckpt")
    with pytest.raises(TypeError, match="'save_obj' must be a Cell or a list .* got int"):
        save_checkpoint(42, path)
    with pytest.raises(TypeError, match="'ckpt_file_name' must be a str or os.PathLike"):
        save_checkpoint(net, 3)
    with pytest.raises(ValueError, match="'ckpt_file_name' must be a non-empty file name"):
        save_checkpoint(net, "")
    with pytest.raises(TypeError, match="'integrated_save' must be a bool, but got str"):
        save_checkpoint(net, path, integrated_save="yes")
    with pytest.raises(TypeError, match="'async_save' must be a bool, but got int"):
        save_checkpoint(net, path, async_save=1)
    with pytest.raises(ValueError, match="'enc_key' is given, but ember does not support "
                                         "encrypted checkpoints"):
        save_checkpoint(net, path, enc_key=b"0" * 16)
    with pytest.raises(TypeError, match="'enc_mode' must be a str"):
        save_checkpoint(net, path, enc_mode=None)
    assert not os.path.exists(path)
    save_checkpoint(net, path)
    with pytest.raises(ValueError, match="'dec_key' is given, but ember does not support"):
        load_checkpoint(path, dec_key=b"0" * 16)
    with pytest.raises(TypeError, match="'dec_mode' must be a str"):
        load_checkpoint(path, dec_mode=1)
    with pytest.raises(TypeError, match="'net' must be a Cell or None, but got str"):
        load_checkpoint(path, net="net")
    with pytest.raises(TypeError, match="'strict_load' must be a bool, but got str"):
        load_checkpoint(path, strict_load="no")
    with pytest.raises(TypeError, match="'ckpt_file_name' must be a str or os.PathLike"):
        load_checkpoint(None)


def test_no_warning_when_everything_matches(tmp_path):
    path = str(tmp_path / "n.ckpt")
    save_checkpoint(_random_small_net(1), path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert load_checkpoint(path, net=SmallNet(), strict_load=True)
