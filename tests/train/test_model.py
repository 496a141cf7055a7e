"""Model: train / eval / predict with callbacks, metrics, checkpoints and mixed precision."""

from __future__ import annotations

import re

import numpy as np
import pytest

import ember
from ember import Tensor, context, nn
from ember.dataset import NumpySlicesDataset
from ember.train import (
    Callback,
    CheckpointConfig,
    LossMonitor,
    Model,
    ModelCheckpoint,
    TimeMonitor,
)
from ember.train.serialization import load_checkpoint

RNG = np.random.default_rng(0)
X = RNG.standard_normal((12, 4)).astype(np.float32)
Y = (X[:, 0] > 0).astype(np.int32)


def dataset(batch=4):
    return NumpySlicesDataset((X, Y), column_names=["x", "y"], shuffle=False).batch(batch)


def make(lr=0.1, **kwargs):
    ember.set_seed(1)
    net = nn.Dense(4, 2)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    return net, Model(net, loss, opt, **kwargs)


def reference_losses(steps):
    """The same training written with TrainOneStepCell, step by step."""
    net, _ = make()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(
        sparse=True, reduction="mean")), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    step.set_train()
    losses = []
    for _ in range(steps // 3):
        for i in range(0, 12, 4):
            losses.append(float(step(Tensor(X[i:i + 4]), Tensor(Y[i:i + 4])).asnumpy()))
    return losses, net


@pytest.mark.parametrize("mode", [context.GRAPH_MODE, context.PYNATIVE_MODE])
def test_train_with_loss_monitor_prints_every_step(mode, capsys):
    context.set_context(mode=mode)
    _, model = make()
    model.train(2, dataset(), callbacks=[LossMonitor()], dataset_sink_mode=False)
    lines = capsys.readouterr().out.strip().splitlines()
    expected, _ = reference_losses(6)
    steps = [(e, s) for e in (1, 2) for s in (1, 2, 3)]
    assert len(lines) == 6
    for line, (epoch, step), loss in zip(lines, steps, expected):
        match = re.fullmatch(r"epoch: (\d+) step: (\d+), loss is (\S+)", line)
        assert match and (int(match[1]), int(match[2])) == (epoch, step), line
        assert float(match[3]) == pytest.approx(loss, rel=1e-5)


def test_custom_callback_sees_the_run_and_can_stop_it():
    seen = []

    class Recorder(Callback):
        def step_end(self, run_context):
            p = run_context.original_args()
            seen.append((p.cur_epoch_num, p.cur_step_num, p.batch_num, p.epoch_num,
                         p.mode, isinstance(p.net_outputs, Tensor)))
            assert p.optimizer is model._optimizer and p.train_network is model.train_network
            if p.cur_step_num == 4:
                run_context.request_stop()

    _, model = make()
    model.train(3, dataset(), callbacks=Recorder(), dataset_sink_mode=False)
    assert seen == [(1, 1, 3, 3, "train", True), (1, 2, 3, 3, "train", True),
                    (1, 3, 3, 3, "train", True), (2, 4, 3, 3, "train", True)]


def test_time_monitor_prints_epoch_and_step_times(capsys):
    _, model = make()
    model.train(1, dataset(), callbacks=TimeMonitor(data_size=3), dataset_sink_mode=False)
    assert re.fullmatch(r"epoch time: \d+\.\d{3} ms, per step time: \d+\.\d{3} ms\n",
                        capsys.readouterr().out)


def test_model_checkpoint_files_keep_and_reload(tmp_path):
    net, model = make()
    config = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=2)
    callback = ModelCheckpoint(prefix="lenet", directory=str(tmp_path), config=config)
    model.train(2, dataset(), callbacks=callback, dataset_sink_mode=False)
    names = sorted(p.name for p in tmp_path.glob("*.ckpt"))
    assert names == ["lenet-2_1.ckpt", "lenet-2_3.ckpt"]  # steps 4 and 6; 2 was removed
    loaded = load_checkpoint(str(tmp_path / "lenet-2_3.ckpt"))
    np.testing.assert_array_equal(loaded["weight"].asnumpy(), net.weight.asnumpy())
    again = ModelCheckpoint(prefix="lenet", directory=str(tmp_path), config=config)
    assert again.prefix == "lenet_1"  # an earlier run's files are never overwritten


def test_eval_reports_metrics_computed_over_the_whole_dataset():
    net, model = make(metrics={"Accuracy": nn.Accuracy(), "Loss": nn.Loss()})
    result = model.eval(dataset(), dataset_sink_mode=False)
    logits = X @ net.weight.asnumpy().T + net.bias.asnumpy()
    accuracy = np.mean(logits.argmax(1) == Y)
    log_p = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    losses = [-log_p[i:i + 4][np.arange(4), Y[i:i + 4]].mean() for i in (0, 4, 8)]
    assert result["Accuracy"] == pytest.approx(accuracy)
    assert result["Loss"] == pytest.approx(np.mean(losses), rel=1e-5)


class _TwoLabelEval(nn.Cell):
    def __init__(self, net):
        super().__init__(auto_prefix=False)
        self.net = net

    def construct(self, data, label1, label2):
        return self.net(data), label1, label2


def test_eval_network_outputs_all_reach_metrics_that_pick_by_set_indexes():
    """MindSpore 1.6's programming guide: without eval_indexes every metric gets all the eval
    network's outputs, and MAE.set_indexes picks the pair it compares."""
    net = nn.Dense(2, 1)
    mae1, mae2 = nn.MAE(), nn.MAE()
    mae1.set_indexes([0, 1])
    mae2.set_indexes([0, 2])
    model = Model(net, eval_network=_TwoLabelEval(net), metrics={"mae1": mae1, "mae2": mae2})
    x = np.arange(12, dtype=np.float32).reshape(6, 2)
    y1, y2 = np.ones((6, 1), np.float32), np.full((6, 1), -2.0, np.float32)
    result = model.eval(NumpySlicesDataset({"x": x, "y1": y1, "y2": y2}, shuffle=False).batch(3),
                        dataset_sink_mode=False)
    out = x @ net.weight.asnumpy().T + net.bias.asnumpy()
    assert result["mae1"] == pytest.approx(np.abs(out - y1).mean(), rel=1e-5)
    assert result["mae2"] == pytest.approx(np.abs(out - y2).mean(), rel=1e-5)


def test_predict_runs_the_network_in_inference_mode():
    net, model = make()
    out = model.predict(Tensor(X))
    np.testing.assert_allclose(out.asnumpy(), X @ net.weight.asnumpy().T + net.bias.asnumpy(),
                               rtol=1e-5)
    assert not net.training


def test_training_reduces_the_loss_and_matches_step_by_step_training():
    net, model = make()
    model.train(3, dataset(), dataset_sink_mode=False)
    _, reference = reference_losses(9)
    np.testing.assert_allclose(net.weight.asnumpy(), reference.weight.asnumpy(), rtol=1e-5)


def test_sink_mode_is_said_not_silently_ignored():
    _, model = make()
    with pytest.warns(UserWarning, match="dataset_sink_mode=True.*not sunk"):
        model.train(1, dataset())


@pytest.mark.parametrize("level", ["O2", "O3"])
def test_mixed_precision_computes_in_float16_with_float32_weights(level):
    net, model = make(amp_level=level)
    dtypes = []

    class Watch(Callback):
        def step_end(self, run_context):
            dtypes.append(net(Tensor(X[:2])).dtype)

    model.train(2, dataset(), callbacks=Watch(), dataset_sink_mode=False)
    assert set(dtypes) == {ember.float16}
    assert net.weight.dtype is ember.float32


def test_bad_arguments_are_named():
    net, model = make()
    with pytest.raises(ValueError, match="epoch must be a positive int"):
        model.train(0, dataset())
    with pytest.raises(ValueError, match="level must be one of"):
        make(amp_level="O1")
    with pytest.raises(TypeError, match="network must be a Cell"):
        Model(lambda x: x)
    with pytest.raises(ValueError, match="has no metrics"):
        model.eval(dataset())
    with pytest.raises(TypeError, match="dataset_sink_mode must be a bool, but got 'True'"):
        model.train(1, dataset(), dataset_sink_mode="True")
    with pytest.raises(ValueError, match="metrics need a network to evaluate"):
        Model(net, metrics={"accuracy"})
    with pytest.raises(TypeError, match="a set of metric names .as MindSpore., but got list"):
        Model(net, nn.SoftmaxCrossEntropyWithLogits(), metrics=["accuracy"])
    with pytest.raises(ValueError, match="eval_indexes must be a list of 3 ints"):
        Model(net, eval_network=net, eval_indexes=(0, 1, 2), metrics={"accuracy"})
    with pytest.raises(ValueError, match="cannot both be 0"):
        CheckpointConfig(save_checkpoint_steps=0, save_checkpoint_seconds=0)


def test_progress_one_line_per_epoch_with_steps_loss_and_time(monkeypatch, capsys):
    import re
    import sys

    _, model = make()
    model.train(2, dataset(), dataset_sink_mode=False)
    captured = capsys.readouterr()
    assert captured.out == ""  # stdout stays the user's
    lines = captured.err.splitlines()  # not a terminal: one plain line per epoch
    assert len(lines) == 2, lines
    for epoch, line in enumerate(lines, 1):
        assert re.fullmatch(rf"epoch {epoch}/2: 3/3 steps, loss \d+\.\d{{4}}, \d+\.\d\d s",
                            line), line
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    model.train(2, dataset(), dataset_sink_mode=False)
    err = capsys.readouterr().err  # a terminal: bars that stay, one per epoch, with the loss
    assert "epoch 1/2" in err and "epoch 2/2" in err and "3/3" in err and "loss " in err
    assert err.count("\n") == 2
