"""nn.Cell: the parameter tree and its names, children, modes, printing, Print and op errors."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember import Parameter, Tensor, nn, ops


class Inner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = Parameter(Tensor(np.ones(2, np.float32)), name="weight")
        self.frozen = Parameter(Tensor(np.zeros(2, np.float32)), requires_grad=False)

    def construct(self, x):
        return ops.mul(x, self.weight)


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Inner()
        self.head = nn.Dense(2, 3)

    def construct(self, x):
        return self.head(self.block(x))


def test_parameter_names_follow_the_attribute_path():
    net = Outer()
    assert [name for name, _ in net.parameters_and_names()] == [
        "block.weight", "block.frozen", "head.weight", "head.bias"]
    assert [p.name for p in net.get_parameters()] == [
        "block.weight", "block.frozen", "head.weight", "head.bias"]
    assert [p.name for p in net.trainable_params()] == ["block.weight", "head.weight",
                                                       "head.bias"]
    assert [p.name for p in net.untrainable_params()] == ["block.frozen"]
    assert list(net.parameters_dict()) == ["block.weight", "block.frozen", "head.weight",
                                           "head.bias"]


def test_nested_cells_get_the_full_prefix():
    class Top(nn.Cell):
        def __init__(self):
            super().__init__()
            self.backbone = Outer()

    assert [p.name for p in Top().get_parameters()][:2] == ["backbone.block.weight",
                                                          "backbone.block.frozen"]


def test_cells_and_names_and_children():
    net = Outer()
    assert [name for name, _ in net.cells_and_names()] == ["", "block", "head"]
    assert list(net.name_cells()) == ["block", "head"]
    net.again = net.block  # one cell under two names is visited and listed once
    assert [name for name, _ in net.cells_and_names()] == ["", "block", "head"]
    assert len(list(net.get_parameters())) == 4
    net.insert_child_to_cell("extra", nn.Dense(3, 1))
    assert net.extra.weight.name == "extra.weight"
    with pytest.raises(KeyError, match="no '.'"):
        net.insert_child_to_cell("a.b", nn.ReLU())
    with pytest.raises(TypeError, match="must be a Cell"):
        net.insert_child_to_cell("x", 3)


def test_repr_lists_children_as_mindspore_does():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(2, 3)
            self.act = nn.ReLU()

    assert repr(Net()) == ("Net<\n  (fc): Dense<input_channels=2, output_channels=3, "
                           "has_bias=True>\n  (act): ReLU<>\n  >")


def test_set_train_reaches_children_and_returns_the_cell():
    net = Outer()
    assert net.set_train() is net
    assert all(cell.training for _, cell in net.cells_and_names())
    net.set_train(False)
    assert not net.block.training


def test_parameter_attribute_rules():
    net = Inner()
    weight = net.weight
    net.weight = Tensor(np.full(weight.shape, 3, np.float32))  # new values, same Parameter
    assert net.weight is weight and (weight.asnumpy() == 3).all()
    with pytest.raises(TypeError, match="Inner.weight is a Parameter; assign a Parameter, a "
                                        "Tensor .* not str"):
        net.weight = "w"
    net.weight = None
    assert [p.name for p in net.get_parameters()] == ["frozen"]
    assert net.weight is None
    # the slot stays a Parameter's (as in MindSpore 1.6): a Cell may not take it
    with pytest.raises(TypeError, match="Inner.weight is a Parameter slot; .* not a Cell"):
        net.weight = Inner()
    net.weight = Parameter(Tensor(np.ones(2, np.float32)), name="weight")
    assert [p.name for p in net.get_parameters()] == ["weight", "frozen"]


def test_cell_attribute_rules():
    net = Outer()
    net.block = None  # a Cell slot may be emptied, and keeps its place
    assert net.block is None and list(net.name_cells()) == ["block", "head"]
    with pytest.raises(TypeError, match="Outer.block is a Cell slot; assign a Cell or None, "
                                        "not Tensor"):
        net.block = Tensor(np.ones(2, np.float32))
    net.block = Inner()
    assert isinstance(net.block, Inner)

    class Forgetful(nn.Cell):
        def __init__(self):
            self.w = 1

    with pytest.raises(AttributeError, match="must call super\\(\\).__init__\\(\\)"):
        Forgetful()


def test_missing_construct_is_explained():
    with pytest.raises(AttributeError, match="defines no construct"):
        nn.Cell()(Tensor(1.0))


def test_init_parameters_data_returns_every_parameter():
    net = Outer()
    assert set(p.name for p in net.init_parameters_data()) == {
        "block.weight", "block.frozen", "head.weight", "head.bias"}


def test_print_writes_tensors_as_mindspore_does(capsys, tmp_path):
    ops.Print()("x:", Tensor(np.array([1, 2], np.int32)))
    assert capsys.readouterr().out == "x:\nTensor(shape=[2], dtype=Int32, value= [1 2])\n"
    with pytest.raises(TypeError, match="Print: input 0 must be a Tensor, str or number"):
        ops.Print()([1, 2])


def test_kernel_errors_name_the_op_and_the_users_line():
    logits = Tensor(np.zeros((2, 3), np.float32))
    labels = Tensor(np.array([0, 7], np.int32))  # 7 is not a class: found only by the kernel
    with pytest.raises(RuntimeError) as info:
        ops.sparse_softmax_cross_entropy_with_logits(logits, labels)
    message = str(info.value)
    assert "SparseSoftmaxCrossEntropyWithLogits" in message
    assert f"{__file__}:" in message
    frames = [entry.path for entry in info.traceback]
    assert not any("ember_cpu" in str(path) for path in frames)


def test_add_flags_sets_attributes_recursively_and_fp16_computes_in_float16() -> None:
    class Net(nn.Cell):
        def __init__(self) -> None:
            super().__init__(flags={"mark": 1})
            self.dense = nn.Dense(3, 2)

        def construct(self, x):
            return self.dense(x)

    net = Net()
    assert net.get_flags() == {"mark": 1} and net.mark == 1
    x = Tensor(np.ones((1, 3), np.float32))
    assert net(x).dtype == ember.float32
    assert net.add_flags_recursive(fp16=True) is net
    assert net.dense.get_flags() == {"fp16": True} and net.dense.fp16 is True
    out = net(x)
    assert out.dtype == ember.float16
    w, b = net.dense.weight.asnumpy(), net.dense.bias.asnumpy()
    np.testing.assert_allclose(out.asnumpy(), np.ones((1, 3)) @ w.T + b, rtol=2e-3)
    net.to_float(ember.float32)
    assert net.get_flags() == {"mark": 1, "fp16": False, "fp32": True}
    assert net(x).dtype == ember.float32
