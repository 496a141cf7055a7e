"""The conformance kit (``ember.testing``) itself: it catches what it is for.

A small backend, installed the way third-party backends are (a distribution with an
``ember.backends`` entry point), reuses the CPU kernels except for a wrong ``Add``, a
missing ``Mul`` and a ``Maximum`` wrong in Graph mode only; pytest runs the kit against it in a
fresh process, and the JSON report must say which tests fail, which are known gaps, and that a
listed gap which passes is reported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from test_plugins import install

import ember
from ember import context
from ember.ops import operations as P
from ember.testing.cases import OpCase
from ember.testing.cases.math import arrays, in_f64
from ember.testing.cases.registry import CaseTableError, _check
from ember.testing.conformance import run_case
from ember_pytest import KnownGaps, _table_keys

BACKEND = """
import numpy as np

from ember.backend import BackendSpec, MissingKernelError, hookimpl
from ember.graph.ir import Value
from ember_cpu.kernels import KERNELS as CPU_KERNELS

KERNELS = {**CPU_KERNELS, "Add": lambda prim: lambda x, y: np.subtract(x, y)}  # wrong
del KERNELS["Mul"]  # missing
GRAPH_KERNELS = {**KERNELS, "Maximum": lambda prim: np.minimum}  # wrong in Graph mode only


class Eager:
    device = None
    name = "KitTest"

    def __init__(self, kernels=KERNELS):
        self.kernels = kernels

    def kernel(self, prim):
        try:
            return self.kernels[prim.name](prim)
        except KeyError:
            raise MissingKernelError(prim.name, "KitTest (ember-kittest)") from None


class Graphs:
    device = None

    def compile(self, graph):
        kernels = [Eager(GRAPH_KERNELS).kernel(node.prim) for node in graph.nodes]

        def run(*arrays):
            env = dict(zip((v.id for v in [*graph.inputs, *graph.params]), arrays))
            env.update((v.id, v.array) for v in graph.consts)

            def get(x):
                if isinstance(x, Value):
                    return env[x.id]
                return type(x)(map(get, x)) if isinstance(x, (tuple, list)) else x

            for node, kernel in zip(graph.nodes, kernels):
                out = kernel(*map(get, node.inputs))
                env.update(zip((v.id for v in node.outputs), out if node.multi else (out,)))
            return tuple(env[v.id] for v in graph.outputs if isinstance(v, Value))

        return run


@hookimpl
def ember_backends():
    return [BackendSpec("KitTest", api_version="1.0", distribution="ember-kittest",
                        priority=-1)]


@hookimpl
def ember_eager_executor(device_target, context):
    return Eager() if device_target == "KitTest" else None


@hookimpl
def ember_graph_executor(device_target, context):
    return Graphs() if device_target == "KitTest" else None
"""

KIT_MODULE = "from ember.testing.conformance import *  # noqa: F403\n"
CONFTEST = """
import pytest

@pytest.fixture(scope="session")
def ember_backend():
    return "KitTest"
"""


def run_pytest(where: Path, *options: str) -> subprocess.CompletedProcess:
    """pytest on ``where`` in a fresh interpreter that sees the test backend."""
    environ = {k: v for k, v in os.environ.items() if k != "EMBER_DEVICE_TARGET"}
    environ["PYTHONPATH"] = str(where / "site")
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "ember.testing.plugin", "-p", "no:cacheprovider",
         "-q", *options], cwd=where, env=environ, capture_output=True, text=True, timeout=300)


@pytest.fixture
def backend_tests(tmp_path: Path) -> Path:
    """A folder with the test backend installed under site/, a test module of the kit and a
    conftest that names the backend (as a backend package's own tests would)."""
    (tmp_path / "site").mkdir()
    install(tmp_path / "site", "ember-kittest", "KitTest", BACKEND)
    (tmp_path / "test_kit.py").write_text(KIT_MODULE)
    (tmp_path / "conftest.py").write_text(CONFTEST)
    return tmp_path


def test_wrong_and_missing_kernels_are_reported(backend_tests: Path) -> None:
    (backend_tests / "gaps.txt").write_text(textwrap.dedent("""\
        # KitTest has no Mul kernel yet
        Mul
        backend/communicator  # nor collectives
        Sub/same-shape-float32  # not a gap: it passes, so the kit must say so
    """))
    chosen = ("(Add/ or Mul/ or Sub/ or Maximum/same or backend) and not BiasAdd and not MatMul"
              " and not random")
    proc = run_pytest(backend_tests, "--ember-report=out/r.json", "--ember-known-gaps=gaps.txt",
                      "-k", chosen)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    report = json.loads((backend_tests / "out" / "r.json").read_text())
    assert {k: report[k] for k in ("backend", "backend_distribution", "backend_version",
                                   "backend_api_version", "core_version", "api_version")} == {
        "backend": "KitTest", "backend_distribution": "ember-kittest",
        "backend_version": "0.3.0", "backend_api_version": "1.0",
        "core_version": ember.__version__, "api_version": "1.2"}
    cases = {c["id"]: c for c in report["cases"]}

    wrong = cases["Add/same-shape-float32"]
    assert (wrong["outcome"], wrong["primitive"], wrong["dtype"], wrong["case"],
            wrong["family"]) == ("fail", "Add", "float32", "Add/same-shape", "math")
    assert "PyNative mode vs the NumPy reference" in wrong["message"]
    assert cases["Add/empty-int32"]["outcome"] == "pass"  # nothing to get wrong
    assert report["primitives"]["Add"]["outcome"] == "fail"

    mul = [c for c in report["cases"] if c["primitive"] == "Mul"]
    assert mul and all(c["outcome"] == "known gap" for c in mul)
    assert "gaps.txt:2: Mul" in mul[0]["message"]
    assert "MissingKernelError" in mul[0]["message"] and "KitTest" in mul[0]["message"]
    assert report["primitives"]["Mul"] == {
        "family": "math", "outcome": "known gap", "dtypes": dict.fromkeys(
            ["float16", "float32", "float64", "int32", "int64", "bool"], "known gap"),
        "pass": 0, "fallback": 0, "fail": 0, "known gap": len(mul)}

    graph = cases["Maximum/same-shape-int32"]
    assert graph["outcome"] == "fail"
    assert "Graph mode (ms_function) vs PyNative mode" in graph["message"]

    fixed = cases["Sub/same-shape-float32"]
    assert fixed["outcome"] == "fail" and "listed as a known gap, but passes" in fixed["message"]
    assert cases["Sub/same-shape-float16"]["outcome"] == "pass"

    assert {c["check"]: c["outcome"] for c in report["backend_checks"]} == {
        **dict.fromkeys(["api-version", "missing-kernel", "bad-input", "context-hook",
                         "device-target-switch"], "pass"),
        "control-flow": "fail",  # its graph executor runs no Switch/WhileLoop (and Mul fails)
        "communicator": "known gap"}
    assert report["summary"]["fail"] == sum(c["outcome"] == "fail" for c in (
        *report["cases"], *report["backend_checks"]))
    assert "ember conformance: KitTest" in proc.stdout
    assert "math:" in proc.stdout and "fail: Add, Maximum, Sub; known gap: Mul" in proc.stdout


def test_known_gaps_files_are_parsed_and_checked(tmp_path: Path) -> None:
    path = tmp_path / "gaps.txt"
    path.write_text("Mul  # no kernel\n\n# comment\nAdd:float16\nbackend/context-hook\n"
                    "Sub/broadcast\nSub/empty-int32\n")
    gaps = KnownGaps.read(path)
    gaps.check(_table_keys())
    assert gaps.entries == {"Mul": 1, "Add:float16": 4, "backend/context-hook": 5,
                            "Sub/broadcast": 6, "Sub/empty-int32": 7}
    assert gaps.match(("Sub/broadcast-int32", "Sub/broadcast", "Sub:int32", "Sub")) == (
        "known gap (gaps.txt:6: Sub/broadcast)")
    assert gaps.match(("Add/empty-float32", "Add/empty", "Add:float32", "Add")) is None

    path.write_text("Mul\nMul:float8\n")
    with pytest.raises(pytest.UsageError, match=r"gaps.txt:2: known gap 'Mul:float8' names "
                                                r"nothing .* did you mean 'Mul:float64'\?"):
        KnownGaps.read(path).check(_table_keys())
    with pytest.raises(pytest.UsageError, match=r"cannot read .*missing.txt"):
        KnownGaps.read(tmp_path / "missing.txt")


def test_the_option_overrides_the_conftest_and_an_unknown_backend_fails(
        backend_tests: Path) -> None:
    proc = run_pytest(backend_tests, "--ember-backend=TPU", "-k", "Mul/same-shape-float32")
    assert proc.returncode == 1
    assert "device_target 'TPU' cannot be tested here: device_target must be one of" in (
        proc.stdout)


def test_the_plugin_is_silent_where_the_kit_is_not_used(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "test_plain.py").write_text("def test_one():\n    assert True\n")
    proc = run_pytest(tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "ember" not in proc.stdout.lower() and proc.stderr == ""


# -- the checks, in process -----------------------------------------------------------------
@pytest.fixture
def cpu() -> None:
    context.set_context(device_target="CPU", mode=context.PYNATIVE_MODE)


class Square(P.Square):
    """Square (the CPU kernel runs it) with a wrong backward rule."""

    def bprop(self, x, out, dout):
        return (dout,)


def test_a_wrong_backward_rule_is_caught(cpu: None) -> None:
    case = OpCase("Square/wrong-bprop", "Square", Square, arrays((2, 3)), in_f64(np.square),
                  (np.float64,), (0,))
    with pytest.raises(AssertionError, match="gradient of argument 0: backward rule vs finite"):
        run_case(case, np.float64)


@pytest.mark.parametrize("reference, match", [
    (lambda x: np.exp(x.astype(np.float64)), r"dtype Float32, expected Float64"),
    (lambda x: np.exp(x)[:1], r"shape \[3\], expected \[1\]"),
    (lambda x: np.where([True, False, False], np.nan, np.exp(x)).astype(x.dtype),
     r"nan location mismatch"),
    (lambda x: np.exp(x) * np.float32(1.001), r"Not equal to tolerance"),
])
def test_outputs_are_compared_by_dtype_shape_values_and_nan(cpu: None, reference,
                                                            match: str) -> None:
    case = OpCase("Exp/bad-reference", "Exp", P.Exp, arrays((3,)), reference, (np.float32,))
    with pytest.raises(AssertionError, match=match):
        run_case(case, np.float32)


def test_the_table_rejects_inconsistent_cases() -> None:
    def case(id: str, dtypes: tuple = (np.float64,), grad: tuple = ()) -> OpCase:
        return OpCase(id, "Exp", P.Exp, arrays((2,)), np.exp, dtypes, grad)

    with pytest.raises(CaseTableError, match="ids must read '<primitive>/<label>'"):
        _check("math", case("Log/x"), {})
    with pytest.raises(CaseTableError, match="the id is used twice .* family nn"):
        _check("math", case("Exp/x"), {"Exp/x": "nn"})
    with pytest.raises(CaseTableError, match=r"grad \(0,\) is checked in float64"):
        _check("math", case("Exp/x", (np.float32,), (0,)), {})


def test_an_unrelated_pytest_run_imports_no_ember(tmp_path: Path) -> None:
    """The kit's plugin loads in every pytest run where ember-core is installed: it must not
    import ember (nor anything heavy) until a test of the kit or an --ember-* option needs it."""
    (tmp_path / "test_unrelated.py").write_text(textwrap.dedent("""\
        import sys

        def test_ember_is_not_imported(request):
            assert request.config.pluginmanager.has_plugin("ember.testing.plugin")
            assert request.config.getoption("ember_backend") is None
            assert [m for m in sys.modules if m.split(".")[0] == "ember"] == []
    """))
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           "-p", "ember.testing.plugin", str(tmp_path)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "1 passed" in proc.stdout, proc.stdout + proc.stderr


def test_written_gaps_make_the_run_green_and_name_missing_kernels(backend_tests: Path) -> None:
    (backend_tests / "test_kit.py").write_text(KIT_MODULE + 'EMBER_KNOWN_GAPS = "gaps.txt"\n')
    chosen = "(Add/ or Mul/ or Maximum/same or control) and not BiasAdd and not MatMul"
    # The module names a file that does not exist yet: this first run writes it.
    first = run_pytest(backend_tests, "--ember-write-gaps=gaps.txt", "--tb=no", "-k", chosen)
    assert first.returncode == 1, first.stdout + first.stderr
    assert "missing kernels: Mul\n" in first.stdout
    written = (backend_tests / "gaps.txt").read_text()
    entries = dict(line.split("  # ", 1) for line in written.splitlines()
                   if line and not line.startswith("#"))
    assert entries["Mul"].endswith("has no kernel for primitive Mul")  # every Mul test fails
    assert "Add" not in entries and "Add/same-shape" in entries  # Add/empty passes
    assert "Maximum" in entries and "backend/control-flow" in entries  # no Switch/WhileLoop
    again = run_pytest(backend_tests, "--tb=no", "-k", chosen)
    assert again.returncode == 0, again.stdout + again.stderr
    assert " 0 fail," in again.stdout and "passed" in again.stdout
