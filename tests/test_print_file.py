"""``print_file_path``: ops.Print writes MindSpore's print protobuf; ``parse_print`` reads it."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pytest

import ember
from ember import Tensor, context, nn, ops


class Printer(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.print = ops.Print()

    def construct(self, x: Tensor, y: Tensor) -> Tensor:
        self.print("x:", x, "y:", y)
        return x


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_parse_print_reads_back_what_print_wrote(tmp_path: Path, mode: int, capsys) -> None:
    target = tmp_path / "print.pb"
    context.set_context(mode=mode, print_file_path=str(target))
    x = np.array([[1, 2, 3], [4, 5, 6]], np.int32)
    net = Printer()
    net(Tensor(x), Tensor(2.5))
    net(Tensor(x * 2), Tensor(np.float64(-1)))
    assert capsys.readouterr().out == ""  # to the file instead of the screen
    items = ember.parse_print(str(target))
    assert [i for i in items if isinstance(i, str)] == ["x:", "y:", "x:", "y:"]
    tensors = [i for i in items if isinstance(i, Tensor)]
    assert [(t.shape, t.dtype) for t in tensors] == [
        ((2, 3), ember.int32), ((), ember.float32), ((2, 3), ember.int32), ((), ember.float64)]
    for got, want in zip(tensors, [x, 2.5, x * 2, -1.0]):
        np.testing.assert_array_equal(got.asnumpy(), want)


def test_the_bytes_are_mindspores_print_message(tmp_path: Path) -> None:
    target = tmp_path / "print.pb"
    context.set_context(print_file_path=str(target))
    ops.Print()("x:")
    ops.Print()(Tensor(np.array([7], np.int8)))
    # Print{value: Value{desc (1): "x:"}}, then Print{value: Value{tensor (2): TensorProto{
    # dims (1): 1, tensor_type (2): "Int8", tensor_content (3): b"\x07"}}}
    tensor = b"\x08\x01" + b"\x12\x04Int8" + b"\x1a\x01\x07"
    value = b"\x12" + bytes([len(tensor)]) + tensor
    assert target.read_bytes() == (b"\x0a\x04\x0a\x02x:" +
                                   b"\x0a" + bytes([len(value)]) + value)


def test_an_existing_file_gets_a_timestamp_suffix(tmp_path: Path) -> None:
    target = tmp_path / "print.pb"
    target.write_bytes(b"old")
    before = int(time.time())
    context.set_context(print_file_path=str(target))
    stored = context.get_context("print_file_path")
    stem, _, seconds = stored.rpartition(".")
    assert stem == str(target) and before <= int(seconds) <= time.time()
    ops.Print()("new")
    assert target.read_bytes() == b"old"
    assert ember.parse_print(stored) == ["new"]


def test_parse_print_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="does not exist or is empty"):
        ember.parse_print(str(tmp_path / "missing.pb"))
    bad = tmp_path / "bad.pb"
    bad.write_bytes(b"\x0a\x09\x0a")
    with pytest.raises(ValueError, match="is not a print file"):
        ember.parse_print(os.fspath(bad))
