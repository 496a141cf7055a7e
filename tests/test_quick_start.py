"""MindSpore 1.6's quick start, its imports edited, on the digits written as MNIST's IDX files:
it runs unchanged and reaches the accuracy of the main job on the same digits."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sklearn")
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "contrib" / "lenet"))
import train  # noqa: E402

EPOCHS = 40  # 44 steps each: about as many steps as the quick start's one epoch of MNIST


def test_quick_start_trains_on_mnist_files_nearly_as_well_as_the_main_job(tmp_path):
    train.write_digits_as_mnist(tmp_path / "datasets" / "MNIST_Data", seed=1)
    script = HERE / "quick_start" / "quick_start.py"
    run = ("import runpy, sys, ember; ember.set_seed(1); "
           f"sys.argv = [{str(script)!r}, '--epochs', '{EPOCHS}']; "
           f"runpy.run_path({str(script)!r}, run_name='__main__')")
    result = subprocess.run([sys.executable, "-c", run], cwd=tmp_path, capture_output=True,
                            text=True, env={**os.environ, "OMP_NUM_THREADS": "1"}, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    quick_start = ast.literal_eval(result.stdout.strip().splitlines()[-1])["Accuracy"]
    # save_checkpoint_steps=1875 is more than the run's 1760 steps: the final one only
    assert [p.name for p in tmp_path.glob("*.ckpt")] == [f"checkpoint_lenet-{EPOCHS}_44.ckpt"]
    main_job = train.main(["--epochs", str(EPOCHS), "--ckpt-dir", str(tmp_path / "main")])
    # MnistDataset binarises the pixels (as MindSpore 1.6's reader does), so the quick start
    # learns from black-and-white digits while the main job sees their grey levels
    assert quick_start >= main_job - 0.15, (quick_start, main_job)
