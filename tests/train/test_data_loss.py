"""No silent data loss: a diverging run keeps its last good checkpoint and says so, a killed
save leaves no temporaries behind for long, numeric surprises warn or are refused."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import warnings

import numpy as np
import pytest

from ember import Parameter, Tensor, context, nn
from ember.dataset import GeneratorDataset, NumpySlicesDataset
from ember.train import CheckpointConfig, Model, ModelCheckpoint
from ember.train.serialization import load_checkpoint, save_checkpoint

X = np.ones((8, 2), np.float32)
Y = np.zeros((8, 1), np.float32)


def _diverging_model(lr: float) -> Model:
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    return Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), lr))


def _data(rows: np.ndarray = X) -> NumpySlicesDataset:
    return NumpySlicesDataset((rows, Y[:len(rows)]), column_names=["x", "y"],
                              shuffle=False).batch(1)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's overflow in the SGD kernel
def test_model_checkpoint_keeps_the_newest_finite_checkpoint(tmp_path):
    context.set_context(mode=context.PYNATIVE_MODE)
    model = _diverging_model(lr=1e18)  # finite for a step or two, then inf and NaN
    ckpt = ModelCheckpoint("net", str(tmp_path), CheckpointConfig(keep_checkpoint_max=2))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.train(1, _data(), callbacks=[ckpt], dataset_sink_mode=False)
    files = sorted(tmp_path.glob("*.ckpt"), key=os.path.getmtime)
    finite = [f for f in files if all(np.isfinite(p.asnumpy()).all()
                                      for p in load_checkpoint(str(f)).values())]
    assert finite, [f.name for f in files]  # the last good one is still there
    assert len(files) == 3  # the two newest, and the newest finite one kept beyond them
    messages = [str(w.message) for w in caught]
    assert sum("keeps" in m and finite[-1].name in m for m in messages) == 1, messages
    assert sum("loss is not finite" in m for m in messages) == 1, messages


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_model_train_warns_once_on_a_non_finite_loss():
    context.set_context(mode=context.PYNATIVE_MODE)
    with pytest.warns(UserWarning, match=r"Model.train: the loss is not finite \((inf|nan)\) "
                                         r"at epoch 1, step \d") as caught:
        _diverging_model(lr=1e18).train(2, _data(), dataset_sink_mode=False)
    assert len([w for w in caught if "not finite" in str(w.message)]) == 1


def test_model_train_refuses_an_empty_dataset():
    context.set_context(mode=context.PYNATIVE_MODE)
    empty = GeneratorDataset(lambda: iter(()), column_names=["x", "y"])
    with pytest.raises(ValueError, match="Model.train: there is no valid data"):
        _diverging_model(lr=0.1).train(1, empty, dataset_sink_mode=False)


def test_model_train_warns_when_an_epoch_runs_no_steps():
    context.set_context(mode=context.PYNATIVE_MODE)
    calls = []

    def rows_on_first_call_only():  # counted once for the size, then empty every epoch
        calls.append(1)
        return iter([(X[i], Y[i]) for i in range(4)] if len(calls) == 1 else [])

    data = GeneratorDataset(rows_on_first_call_only, column_names=["x", "y"]).batch(1)
    with pytest.warns(UserWarning, match="Model.train: epoch 1 ran no steps"):
        _diverging_model(lr=0.1).train(1, data, dataset_sink_mode=False)


KILLED_SAVE = """
import os, sys, time
import numpy as np
from ember import Parameter
from ember.train import serialization

os.fsync = lambda fd: time.sleep(60)  # the save stops with its temporary written
serialization.save_checkpoint([{"name": "w", "data": Parameter(np.ones(4, np.float32),
                                                                name="w")}], sys.argv[1])
"""


def test_a_later_save_removes_temporaries_of_a_killed_save(tmp_path):
    target = tmp_path / "net.ckpt"
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(KILLED_SAVE), str(target)])
    deadline = time.time() + 60
    while not list(tmp_path.glob(".net.ckpt.*.tmp")) and time.time() < deadline:
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    stale = list(tmp_path.glob(".net.ckpt.*.tmp"))
    assert len(stale) == 1
    other = tmp_path / f".other.ckpt.{child.pid}.abc.tmp"  # another target's: not touched
    other.write_bytes(b"x")
    live = tmp_path / f".net.ckpt.{os.getpid()}.abc.tmp"  # a save under way here: kept
    live.write_bytes(b"x")
    save_checkpoint([{"name": "w", "data": Tensor(np.ones(2, np.float32))}], str(target))
    assert not stale[0].exists()
    assert other.exists() and live.exists() and target.exists()


def test_tensor_refuses_a_masked_array():
    with pytest.raises(TypeError, match=r"Tensor: input_data is a NumPy masked array"):
        Tensor(np.ma.masked_array([1.0, 2.0], mask=[False, True]))


def test_parameter_untouched_by_a_refused_tensor():
    p = Parameter(np.ones(2, np.float32), name="p")
    with pytest.raises(TypeError):
        p.set_data(Tensor(np.ma.masked_array([1.0, 2.0], mask=[False, True])))
    np.testing.assert_array_equal(p.asnumpy(), 1.0)


PEAK_OF_LOAD = """
import json, os, resource, sys, tracemalloc
from ember.train.serialization import load_checkpoint

base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tracemalloc.start()
loaded = load_checkpoint(sys.argv[1])
traced = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) * 1024  # KiB on Linux
print(json.dumps({"traced": traced, "rss": grown, "entries": len(loaded)}))
"""


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in KiB on Linux")
def test_load_checkpoint_peaks_at_about_twice_the_file_size(tmp_path):
    rng = np.random.default_rng(0)
    path = tmp_path / "big.ckpt"
    save_checkpoint([{"name": f"w{i}", "data": Tensor(rng.normal(size=(256, 1024))
                                                      .astype(np.float32))} for i in range(8)],
                    str(path))
    size = path.stat().st_size  # 8 MiB
    proc = subprocess.run([sys.executable, "-c", PEAK_OF_LOAD, str(path)], capture_output=True,
                          text=True, timeout=120, check=True)
    peak = json.loads(proc.stdout.strip().splitlines()[-1])
    assert peak["entries"] == 8
    assert peak["traced"] < 1.5 * size  # the arrays, and one tensor's copy in flight
    assert peak["rss"] < 2.5 * size  # the mapped file and the arrays
