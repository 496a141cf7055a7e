"""Compiled graphs are keyed by the training flags of the cells they run, so alternating
training and evaluation compiles each network once, as does alternating the context's mode;
the cache of one function is bounded."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from ember import Tensor, context, ms_function, nn, ops
from ember.dataset import NumpySlicesDataset
from ember.graph import compiler
from ember.train import Model

RNG = np.random.default_rng(0)
X = RNG.normal(size=(16, 4)).astype(np.float32)
Y = (X.sum(axis=1) > 0).astype(np.int32)


@pytest.fixture(autouse=True)
def _graph_mode():
    context.set_context(mode=context.GRAPH_MODE)


def test_model_train_and_eval_compile_each_network_once():
    net = nn.SequentialCell([nn.Dense(4, 8), nn.Dropout(keep_prob=0.9), nn.Dense(8, 2)])
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = Model(net, loss, nn.Momentum(net.trainable_params(), 0.1, 0.9),
                  metrics={"acc": nn.Accuracy()})
    data = NumpySlicesDataset((X, Y), column_names=["x", "y"], shuffle=False).batch(8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dataset_sink_mode
        model.train(1, data)
        model.eval(data)
        compiled = compiler.compile_count()
        for _ in range(3):
            model.train(1, data)
            model.eval(data)
    assert compiler.compile_count() == compiled


def test_set_train_of_one_cell_does_not_recompile_another():
    a, b = nn.Dense(4, 2), nn.Dense(4, 2)
    x = Tensor(X[:2])
    a(x), b(x)
    compiled = compiler.compile_count()
    b.set_train(True)
    b.set_train(False)
    a(x)
    assert compiler.compile_count() == compiled


def test_a_plain_ms_function_follows_the_flags_of_the_cells_it_called():
    drop = nn.Dropout(keep_prob=0.5)

    @ms_function
    def f(x):
        return ops.mul(drop(x), 1.0)

    x = Tensor(np.ones((64, 64), np.float32))
    drop.set_train(True)
    assert (f(x).asnumpy() == 0).any()  # dropping
    drop.set_train(False)
    np.testing.assert_array_equal(f(x).asnumpy(), 1.0)  # compiled again: no dropout
    compiled = compiler.compile_count()
    drop.set_train(True)
    assert (f(x).asnumpy() == 0).any()
    drop.set_train(False)
    np.testing.assert_array_equal(f(x).asnumpy(), 1.0)
    assert compiler.compile_count() == compiled  # both phases were kept


def test_switching_the_mode_back_and_forth_compiles_each_network_once():
    net, x = nn.Dense(4, 2), Tensor(X[:2])
    graph_out = net(x).asnumpy()
    compiled = compiler.compile_count()
    for _ in range(3):
        context.set_context(mode=context.PYNATIVE_MODE)
        np.testing.assert_allclose(net(x).asnumpy(), graph_out, rtol=1e-6)
        context.set_context(mode=context.GRAPH_MODE)
        np.testing.assert_array_equal(net(x).asnumpy(), graph_out)
    assert compiler.compile_count() == compiled


def test_the_cache_of_one_network_is_bounded_and_warns_once(monkeypatch):
    monkeypatch.setattr(compiler, "CACHE_LIMIT", 4)
    net = nn.ReLU()
    with pytest.warns(UserWarning, match=r"ReLU.*compiled for 5 different.*least recently") as w:
        for n in range(1, 12):
            np.testing.assert_array_equal(net(Tensor(-np.ones(n, np.float32))).asnumpy(), 0)
    assert len([x for x in w if "least recently" in str(x.message)]) == 1
    assert len(net._graph_cache.entries) == 4
    compiled = compiler.compile_count()
    net(Tensor(np.ones(11, np.float32)))  # recent: kept
    assert compiler.compile_count() == compiled
    net(Tensor(np.ones(1, np.float32)))  # evicted: compiled again
    assert compiler.compile_count() == compiled + 1


def test_ms_memory_recycle_releases_compiled_graphs_which_compile_again():
    import ember

    net = nn.Dense(4, 2)
    x = Tensor(X[:2])
    first = net(x).asnumpy()
    compiled = compiler.compile_count()
    net(x)
    assert compiler.compile_count() == compiled  # cached
    assert ember.ms_memory_recycle() is None
    assert not net.__dict__["_graph_cache"].entries
    np.testing.assert_array_equal(net(x).asnumpy(), first)
    assert compiler.compile_count() == compiled + 1
