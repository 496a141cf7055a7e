"""fallback_device_target (an Ember extension of set_context): a primitive the backend lacks
runs on another backend, with a warning per primitive and a report at exit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from test_plugins import install

PARTIAL = """
import numpy as np
from ember.backend import BackendSpec, MissingKernelError, hookimpl

class Partial:
    '''A backend that only adds: arrays live on "device" as wrapped NumPy arrays.'''
    name = "Partial"

    class Buffer:
        def __init__(self, array):
            self.array = array

    primitives = frozenset({"Add"})

    def __init__(self):
        self.device = self

    def kernel(self, prim):
        if prim.name == "Add":
            return lambda x, y: self.Buffer(np.add(x.array, y.array))
        raise MissingKernelError(prim.name, "Partial (ember-partial)")

    def to_host(self, data):
        return data.array

    def from_host(self, array):
        return self.Buffer(np.asarray(array))

@hookimpl
def ember_backends():
    return [BackendSpec("Partial", api_version="1.0", distribution="ember-partial")]

@hookimpl
def ember_eager_executor(device_target, context):
    return Partial() if device_target == "Partial" else None
"""

SCRIPT = """
import json, warnings
import numpy as np
from ember import Tensor, context, ops
from ember._executor import fallback_report

context.set_context(mode=context.PYNATIVE_MODE, device_target="Partial")
x = Tensor(np.array([1.0, 2.0], np.float32))
result = {}
try:
    ops.mul(x, x)
except Exception as exc:
    result["without"] = [type(exc).__name__, str(exc)]
context.set_context(fallback_device_target="CPU")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    y = ops.add(ops.mul(x, x), x)
    z = ops.mul(y, x)
result["values"] = z.asnumpy().tolist()
result["warnings"] = [str(w.message) for w in caught]
result["report"] = fallback_report()
print(json.dumps(result))
"""


def test_missing_kernel_errors_by_default_and_falls_back_when_asked(tmp_path: Path) -> None:
    install(tmp_path, "ember-partial", "Partial", PARTIAL)
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(SCRIPT)], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    kind, message = result["without"]
    assert kind == "MissingKernelError"
    assert "Partial (ember-partial) backend has no kernel for primitive Mul" in message
    assert result["values"] == [2.0, 12.0]  # (x*x + x) * x, Mul on CPU, Add on Partial
    assert len(result["warnings"]) == 1  # one warning per primitive, not per call
    assert "Mul has no kernel on Partial backend" in result["warnings"][0]
    assert result["report"] == {"Mul": 2}
    assert "primitives run by fallback_device_target this run: Mul x2" in proc.stderr


IN_PLACE = """
import json
import numpy as np
from ember import Parameter, Tensor, context, ops

context.set_context(mode=context.PYNATIVE_MODE, device_target="Partial",
                    fallback_device_target="CPU")
p = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="p")
try:
    ops.assign_add(p, Tensor(np.array([2.0, 2.0], np.float32)))
    result = ["no error"]
except Exception as exc:
    result = [type(exc).__name__, str(exc)]
print(json.dumps(result + [p.asnumpy().tolist()]))
"""


def test_an_in_place_update_is_never_run_by_fallback(tmp_path: Path) -> None:
    """Its result would stay on the fallback backend and the Parameter would not change."""
    install(tmp_path, "ember-partial", "Partial", PARTIAL)
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(IN_PLACE)],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    kind, message, values = json.loads(proc.stdout.strip().splitlines()[-1])
    assert kind == "MissingKernelError", message
    assert ("the Partial (ember-partial) backend has no kernel for primitive AssignAdd; it "
            "updates Parameters in place, so fallback_device_target 'CPU' cannot run it") \
        in message
    assert values == [1.0, 2.0]


def test_ops_matrix_shows_kernels_gaps_and_fallbacks(tmp_path: Path) -> None:
    install(tmp_path, "ember-partial", "Partial", PARTIAL)
    code = textwrap.dedent("""
        from ember import context
        from ember.__main__ import ops_matrix
        print(ops_matrix())
        context.set_context(fallback_device_target="CPU")
        print(ops_matrix())
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    plain, with_fallback = proc.stdout.split("primitive", 2)[1:]
    rows = {line.split()[0]: line.split()[1:] for line in plain.splitlines()[1:] if line}
    header = plain.splitlines()[0].split()
    assert header == ["CPU", "Partial"]
    assert rows["Add"] == ["yes", "yes"] and rows["Mul"] == ["yes", "MISSING"]
    assert rows["Conv2D"] == ["yes", "MISSING"]
    rows = {line.split()[0]: line.split()[1:] for line in with_fallback.splitlines()[1:] if line}
    assert rows["Mul"] == ["yes", "fallback"]


def test_compare_backends_checks_a_backend_running_with_fallback(tmp_path: Path) -> None:
    install(tmp_path, "ember-partial", "Partial", PARTIAL)
    code = textwrap.dedent("""
        import warnings
        import numpy as np
        from ember import Tensor, context, nn
        from ember.testing import compare_backends
        warnings.simplefilter("ignore")
        context.set_context(mode=context.PYNATIVE_MODE, fallback_device_target="CPU")
        net = nn.Dense(3, 2, activation="relu")
        x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
        report = compare_backends(net, x, targets=["Partial"])
        print(report.ok, report.max_difference, ("Partial", "grad(weight)") in report.within)
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["True", "0.0", "True"]
