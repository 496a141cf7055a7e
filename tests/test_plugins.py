"""Backend discovery through entry points, and the four errors of an unusable device_target.

Each test installs small plugins the way a real one is installed, as a distribution with an
``ember.backends`` entry point (a ``*.dist-info`` folder on ``sys.path``), and runs ember in a
fresh interpreter so discovery starts from scratch.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

GOOD = """
from ember.backend import BackendSpec, hookimpl

@hookimpl
def ember_backends():
    return [BackendSpec("{target}", api_version="{api}", distribution="{dist}", priority={prio},
                        check_available=lambda: {reason!r})]
"""


def install(site: Path, dist: str, target: str, source: str) -> None:
    """Write a distribution ``dist`` whose entry point ``target.lower()`` is ``source``."""
    module = dist.replace("-", "_")
    (site / f"{module}.py").write_text(textwrap.dedent(source))
    info = site / f"{module}-0.3.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.3.0\n")
    (info / "entry_points.txt").write_text(
        f"[ember.backends]\n{target.lower()} = {module}\n")


def good(dist: str, target: str, api: str = "1.0", prio: int = 5,
         reason: str | None = None) -> str:
    """The source of a plugin whose ember_backends declares ``target``."""
    return GOOD.format(target=target, api=api, dist=dist, prio=prio, reason=reason)


def install_good(site: Path, dist: str, target: str, api: str = "1.0", prio: int = 5,
                 reason: str | None = None) -> None:
    install(site, dist, target, good(dist, target, api, prio, reason))


def run_ember(site: Path, code: str, env: dict[str, str] | None = None) -> dict:
    """Run ``code`` in a fresh interpreter that sees the plugins in ``site``; it prints JSON."""
    environ = {k: v for k, v in os.environ.items() if k != "EMBER_DEVICE_TARGET"}
    environ.update(PYTHONPATH=str(site), **(env or {}))
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=environ,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


PROBE = """
import json, sys
import ember
from ember import context
def attempt(target):
    try:
        context.set_context(device_target=target)
        return ["ok", context.get_context("device_target")]
    except Exception as exc:
        return [type(exc).__name__, str(exc)]
print(json.dumps({t: attempt(t) for t in %r} | {"modules": sorted(
    m for m in sys.modules if m.split(".")[0] in ("tensorflow", "acl", "heavy"))}))
"""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return tmp_path


def test_cpu_backend_is_found_and_is_the_default(site: Path) -> None:
    result = run_ember(site, "import json, ember; print(json.dumps("
                             "ember.get_context('device_target')))")
    assert result == "CPU"


def test_not_installed_says_which_distribution_to_install(site: Path) -> None:
    missing = [(target, extra) for target, extra in (("Ascend", "ascend"), ("GPU", "gpu"))
               if importlib.util.find_spec(f"ember_{extra}") is None]
    if not missing:
        pytest.skip("every standard backend is installed here")
    target, extra = missing[0]
    result = run_ember(site, PROBE % ([target],))
    kind, message = result[target]
    assert kind == "BackendError"
    assert f"ember-{extra}" in message and f'pip install "ember-core[{extra}]"' in message


def test_unknown_target_lists_the_valid_ones(site: Path) -> None:
    result = run_ember(site, PROBE % (["TPU", "cpu"],))
    kind, message = result["TPU"]
    assert kind == "ValueError"
    assert "'TPU'" in message and all(t in message for t in ("CPU", "GPU", "Ascend"))
    assert "did you mean 'CPU'" in result["cpu"][1]


def test_unavailable_backend_is_skipped_when_choosing_the_default(site: Path) -> None:
    install_good(site, "ember-gpu", "GPU", prio=10, reason="no GPU is visible")
    code = "import json, ember; print(json.dumps(ember.get_context('device_target')))"
    assert run_ember(site, code) == "CPU"


def test_unavailable_error_message(site: Path) -> None:
    install_good(site, "ember-gpu", "GPU", prio=10, reason="no GPU is visible (nvidia-smi: none)")
    result = run_ember(site, PROBE % (["GPU"],))
    kind, message = result["GPU"]
    assert kind == "BackendError"
    assert "installed (ember-gpu) but unavailable" in message
    assert "no GPU is visible (nvidia-smi: none)" in message


def test_plugin_that_fails_to_import_is_named_and_others_keep_working(site: Path) -> None:
    install(site, "ember-broken", "Broken", "raise ImportError('libfoo.so not found')\n")
    result = run_ember(site, PROBE % (["Broken", "CPU"],))
    kind, message = result["Broken"]
    assert kind == "BackendError"
    assert "'broken'" in message and "ember-broken" in message
    assert "ImportError: libfoo.so not found" in message
    assert result["CPU"] == ["ok", "CPU"]


def test_incompatible_api_version_names_both_versions(site: Path) -> None:
    install_good(site, "ember-future", "Future", api="2.3")
    result = run_ember(site, PROBE % (["Future"],))
    kind, message = result["Future"]
    assert kind == "BackendError"
    from ember.version import API_VERSION

    assert "core API 2.3" in message and f"core API {API_VERSION[0]}.{API_VERSION[1]}" in message


def test_third_party_backend_is_selectable_and_wins_by_priority(site: Path) -> None:
    install_good(site, "ember-mydev", "MyDev", prio=50)
    result = run_ember(site, PROBE % (["MyDev"],))
    assert result["MyDev"] == ["ok", "MyDev"]
    assert run_ember(site, "import json, ember; print(json.dumps("
                           "ember.get_context('device_target')))") == "MyDev"


def test_environment_variable_chooses_the_default(site: Path) -> None:
    install_good(site, "ember-mydev", "MyDev", prio=50)
    code = "import json, ember; print(json.dumps(ember.get_context('device_target')))"
    assert run_ember(site, code, env={"EMBER_DEVICE_TARGET": "CPU"}) == "CPU"


def test_discovery_imports_no_heavy_library(site: Path) -> None:
    install(site, "ember-heavy", "Heavy", """
        from ember.backend import BackendSpec, hookimpl

        @hookimpl
        def ember_backends():
            return [BackendSpec("Heavy", api_version="1.0", distribution="ember-heavy")]

        @hookimpl
        def ember_eager_executor(device_target, context):
            if device_target == "Heavy":
                import heavy_runtime
    """)
    (site / "heavy_runtime.py").write_text("raise RuntimeError('imported at discovery')\n")
    result = run_ember(site, PROBE % (["Heavy"],) + "\nprint(json.dumps(sorted(sys.modules)))")
    assert "heavy_runtime" not in result
    assert not any(m.split(".")[0] in ("tensorflow", "acl") for m in result)


def test_info_lists_backends_with_status(site: Path) -> None:
    install(site, "ember-broken", "Broken", "raise ImportError('libfoo.so not found')\n")
    proc = subprocess.run([sys.executable, "-m", "ember", "info"], capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(site)}, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "ember-core 0.1.0" in out
    assert "CPU" in out and "ember-cpu" in out and "available" in out
    assert "ember-broken 0.3.0: UNUSABLE" in out and "libfoo.so not found" in out
    assert "device_target = CPU" in out
    assert "mode = GRAPH_MODE" in out
    assert "runs on: the host CPU, with NumPy" in out and "numpy " in out and "blas " in out


def test_info_json_reports_backends_details_and_context(site: Path) -> None:
    install(site, "ember-odd", "Odd", """
        from ember.backend import BackendSpec, hookimpl

        def details():
            raise OSError("no driver")

        @hookimpl
        def ember_backends():
            return [BackendSpec("Odd", api_version="1.0", distribution="ember-odd",
                                details=details)]
    """)
    proc = subprocess.run([sys.executable, "-m", "ember", "info", "--json"],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(site)})
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    backends = {b["device_target"]: b for b in data["backends"]}
    assert backends["CPU"]["available"] and backends["CPU"]["details"]["runs on"]
    assert backends["Odd"]["details"] == {
        "details": "unknown: its details hook raised OSError: no driver"}
    assert data["context"]["mode"] == "GRAPH_MODE" and data["ember_core"] == "0.1.0"
    assert set(data["versions"]) >= {"numpy", "blas", "pluggy", "protobuf"}


def test_info_into_a_closed_pipe_ends_quietly() -> None:
    """``python -m ember info | head -1``: the reader leaves before ember writes."""
    proc = subprocess.Popen([sys.executable, "-m", "ember", "info", "--ops"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and err == b"", err.decode()


def test_info_ops_reports_coverage_of_mindspore16_cpu_primitives() -> None:
    from ember.__main__ import mindspore16_coverage
    from ember.ops import operations as P
    from ember.ops._mindspore16 import CPU_PRIMITIVES

    report = mindspore16_coverage().splitlines()
    defined = [name for name in CPU_PRIMITIVES if hasattr(P, name)]
    assert report[0].startswith(
        f"MindSpore 1.6 CPU primitives: {len(defined)} of {len(CPU_PRIMITIVES)} defined")
    assert len(defined) >= 0.95 * len(CPU_PRIMITIVES)
    # Every one ember defines runs on the CPU backend: no kernel is missing there.
    assert f"  CPU: {len(defined)} of {len(CPU_PRIMITIVES)} run" in report[1:]


# -- isolation: one plugin never breaks or replaces another backend --------------------------
FAKE_EXECUTOR = """
from ember.backend import BackendSpec, hookimpl

class Executor:
    device = None
    def kernel(self, prim):
        return lambda *args: {value}

@hookimpl(tryfirst=True)
def ember_eager_executor(device_target, context):
    return Executor()
"""


def info_lines(site: Path) -> str:
    proc = subprocess.run([sys.executable, "-m", "ember", "info"], capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(site)}, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


ADD = """
import json, warnings
import numpy as np
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    from ember import Tensor, context, ops
    context.set_context(device_target="CPU", mode=context.PYNATIVE_MODE)
    out = ops.add(Tensor(np.ones(2, np.float32)), Tensor(np.ones(2, np.float32))).asnumpy()
print(json.dumps({"add": out.tolist(), "warnings": [str(w.message) for w in caught]}))
"""


def test_a_third_party_claiming_a_builtin_target_is_refused_loudly(site: Path) -> None:
    install(site, "ember-evil", "CPU",
            good("ember-evil", "CPU", prio=100) + FAKE_EXECUTOR.format(value="'hijacked'"))
    result = run_ember(site, ADD)
    assert result["add"] == [2.0, 2.0]
    assert any("ember-evil" in w and "ember-cpu" in w for w in result["warnings"])
    out = info_lines(site)
    assert "ember-evil 0.3.0: UNUSABLE" in out and "ember-cpu" in out


def test_two_third_parties_claiming_one_target_are_both_refused(site: Path) -> None:
    for dist in ("ember-twin-a", "ember-twin-b"):
        install_good(site, dist, "Twin")
    kind, message = run_ember(site, PROBE % (["Twin"],))["Twin"]
    assert kind == "BackendError"
    assert "ember-twin-a" in message and "ember-twin-b" in message


def test_hooks_of_other_plugins_are_never_called_for_a_target(site: Path) -> None:
    install(site, "ember-greedy", "Greedy", good("ember-greedy", "Greedy") + textwrap.dedent("""
        @hookimpl(tryfirst=True)
        def ember_communicator(device_target):
            raise RuntimeError("greedy communicator")
    """) + FAKE_EXECUTOR.format(value="'hijacked'"))
    code = ('import ember\nember.get_context("device_target")  # discovers every plugin\n'
            + ADD)
    result = run_ember(site, code)
    assert result["add"] == [2.0, 2.0]
    code = ("import json; from ember.backend import host_communicator\n"
            "try:\n    host_communicator(); print(json.dumps('ok'))\n"
            "except ImportError as exc:\n    print(json.dumps('no mpi'))\n")
    assert run_ember(site, code) in ("ok", "no mpi")


def test_only_the_entry_point_of_the_requested_target_is_imported(site: Path) -> None:
    install(site, "ember-slow", "Slow", "import time\ntime.sleep(30)\n")
    result = run_ember(site, PROBE % (["CPU"],) + "\nprint(json.dumps(sorted(sys.modules)))")
    assert "ember_slow" not in result


@pytest.mark.parametrize("raises", ["import sys; sys.exit(3)", "raise KeyboardInterrupt",
                                    "raise BaseException('odd')"])
def test_a_plugin_ending_the_process_at_import_is_contained(site: Path, raises: str) -> None:
    install(site, "ember-exits", "Exits", raises + "\n")
    result = run_ember(site, "import ember, json; ember.get_context('device_target')\n"
                             + PROBE % (["Exits", "CPU"],))
    assert result["CPU"] == ["ok", "CPU"]
    kind, message = result["Exits"]
    assert kind == "BackendError" and "ember-exits" in message
    out = info_lines(site)
    assert "ember-exits 0.3.0: UNUSABLE" in out and "CPU" in out


@pytest.mark.parametrize(("target", "api"), [("42", '"1.0"'), ('"Bad"', "1.0")])
def test_a_malformed_backend_spec_is_named_and_others_keep_working(site: Path, target: str,
                                                                   api: str) -> None:
    install(site, "ember-bad", "Bad", f"""
        from ember.backend import BackendSpec, hookimpl

        @hookimpl
        def ember_backends():
            return [BackendSpec({target}, api_version={api}, distribution="ember-bad")]
    """)
    out = info_lines(site)
    assert "ember-bad 0.3.0: UNUSABLE" in out
    result = run_ember(site, "import ember, json; ember.get_context('device_target')\n"
                             + PROBE % (["CPU"],))
    assert result["CPU"] == ["ok", "CPU"]


REJECTS_EVERYTHING = """
@hookimpl
def ember_context_changed(device_target, changes):
    raise ValueError("ember-grumpy rejects everything")
"""


@pytest.mark.parametrize("api", ["2.3", "1.0"])
def test_a_context_hook_of_a_plugin_not_in_use_cannot_reject(site: Path, api: str) -> None:
    install(site, "ember-grumpy", "Grumpy",
            good("ember-grumpy", "Grumpy", api=api) + REJECTS_EVERYTHING)
    result = run_ember(site, "import ember, json; ember.get_context('device_target')\n"
                             + PROBE % (["CPU"],))
    assert result["CPU"] == ["ok", "CPU"]


def test_a_context_hook_still_rejects_for_its_own_target(site: Path) -> None:
    install(site, "ember-grumpy", "Grumpy", good("ember-grumpy", "Grumpy") + REJECTS_EVERYTHING)
    assert run_ember(site, PROBE % (["Grumpy"],))["Grumpy"] == [
        "ValueError", "ember-grumpy rejects everything"]


def test_a_priority_tie_prefers_the_builtin_backend(site: Path) -> None:
    install_good(site, "ember-aaa", "Aaa", prio=0)  # ember-cpu's priority
    code = "import json, ember; print(json.dumps(ember.get_context('device_target')))"
    assert run_ember(site, code) == "CPU"


def test_an_executor_without_kernel_is_named_with_its_plugin(site: Path) -> None:
    install(site, "ember-nokernel", "NoKernel", good("ember-nokernel", "NoKernel") + (
        "@hookimpl\ndef ember_eager_executor(device_target, context):\n    return object()\n"))
    code = """
        import json
        import numpy as np
        from ember import Tensor, context, ops
        context.set_context(device_target="NoKernel", mode=context.PYNATIVE_MODE)
        try:
            ops.add(Tensor(np.ones(2)), Tensor(np.ones(2)))
        except Exception as exc:
            print(json.dumps([type(exc).__name__, str(exc)]))
    """
    kind, message = run_ember(site, code)
    assert kind == "BackendError"
    assert "ember-nokernel" in message and "kernel" in message


def test_one_module_serves_several_targets_each_with_its_entry_point(site: Path) -> None:
    install(site, "ember-pair", "PairA", """
        from ember.backend import BackendSpec, hookimpl

        @hookimpl
        def ember_backends():
            return [BackendSpec(t, api_version="1.0", distribution="ember-pair")
                    for t in ("PairA", "PairB")]
    """)
    points = site / "ember_pair-0.3.0.dist-info" / "entry_points.txt"
    points.write_text(points.read_text() + "pairb = ember_pair\n")
    result = run_ember(site, PROBE % (["PairB", "PairA"],))
    assert result == {"PairB": ["ok", "PairB"], "PairA": ["ok", "PairA"], "modules": []}
