"""ember.testing.check_mode_parity and compare_backends on users' networks."""

from __future__ import annotations

import numpy as np
import pytest

from ember import Tensor, context, nn, ops
from ember.testing import check_mode_parity, compare_backends


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3, has_bias=True)
        self.bn = nn.BatchNorm2d(2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(2 * 4 * 4, 3)

    def construct(self, x):
        return self.fc(self.flatten(self.bn(self.conv(x))))


def images():
    return Tensor(np.random.default_rng(0).standard_normal((2, 1, 4, 4)).astype(np.float32))


def test_a_network_agrees_in_both_modes_and_nothing_is_changed():
    net = Net()
    net.set_train()
    before = {p.name: p.asnumpy() for p in net.get_parameters()}
    context.set_context(mode=context.PYNATIVE_MODE)
    report = check_mode_parity(net, images())
    assert report.ok, str(report)
    assert str(report).startswith("OK against PYNATIVE")
    assert ("GRAPH", "grad(fc.weight)") in report.differences
    assert ("GRAPH", "grad(input)[0]") in report.differences
    assert context.get_context("mode") == context.PYNATIVE_MODE
    for p in net.get_parameters():  # BatchNorm's moving statistics included
        np.testing.assert_array_equal(p.asnumpy(), before[p.name])


class CountsCalls(nn.Cell):
    """Reads Python state that changes per call: traced once in GRAPH_MODE, so modes differ."""

    def __init__(self):
        super().__init__()
        self.calls = 0

    def construct(self, x):
        self.calls += 1
        return ops.mul(x, float(self.calls))


def test_divergence_is_reported_with_the_largest_difference():
    report = check_mode_parity(CountsCalls(), Tensor(np.ones(3, np.float32)))
    assert not report.ok
    assert report.differences[("GRAPH", "output")] == 2.0
    assert "output" in str(report) and "<-- differs" in str(report)


def test_hook_calls_are_compared():
    net = Net()
    net.fc.register_backward_hook(lambda cell_id, gin, gout: None)
    report = check_mode_parity(net, images())
    assert report.ok, str(report)


def test_compare_backends_against_the_numpy_oracle():
    report = compare_backends(Net(), images(), targets=["CPU"])
    assert report.ok and report.max_difference == 0.0
    with pytest.raises(TypeError, match="targets must be a list"):
        compare_backends(Net(), images(), targets="CPU")
