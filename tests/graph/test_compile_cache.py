"""enable_compile_cache: a second process loads the front-end graph the first one saved, and
a change to a cell's code makes it trace again. Real processes, real files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

SCRIPT = """
import json, sys
import numpy as np
import ember
from ember import Tensor, context, nn
from ember.graph.compiler import compile_stats

context.set_context(mode=context.GRAPH_MODE, enable_compile_cache=True,
                    compile_cache_path=sys.argv[1])

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 2, weight_init="ones")
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(self.fc(x)) {change}

net = Net()
loss = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
step = nn.TrainOneStepCell(loss, nn.Momentum(net.trainable_params(), 0.1, 0.9))
step.set_train()
x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
y = Tensor(np.array([0, 1], np.int32))
losses = [float(step(x, y).asnumpy()) for _ in range(3)]
print(json.dumps({{"losses": losses, **compile_stats()}}))
"""


def run(tmp_path: Path, change: str = "") -> dict:
    script = tmp_path / f"net{abs(hash(change))}.py"
    script.write_text(textwrap.dedent(SCRIPT.format(change=change)))
    proc = subprocess.run([sys.executable, str(script), str(tmp_path / "cache")],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_second_process_loads_instead_of_tracing(tmp_path):
    first = run(tmp_path)
    assert (first["traces"], first["cache_loads"]) == (1, 0)
    files = sorted((tmp_path / "cache" / "ember_graphs").glob("*.json"))
    assert len(files) == 1 and files[0].name.startswith("TrainOneStepCell_")
    assert files[0].read_bytes().startswith(b"EMBER-GRAPH")
    second = run(tmp_path)
    assert (second["traces"], second["cache_loads"]) == (0, 1)
    assert second["losses"] == first["losses"]  # the same training, from the loaded graph


def test_changing_the_cells_code_invalidates_the_cache(tmp_path):
    run(tmp_path)
    changed = run(tmp_path, change="* 2")
    assert (changed["traces"], changed["cache_loads"]) == (1, 0)
    assert len(list((tmp_path / "cache" / "ember_graphs").glob("*.json"))) == 2
