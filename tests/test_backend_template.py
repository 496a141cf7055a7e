"""The backend template (``contrib/backend-template``) and the backend guide
(``docs/writing-a-backend.md``).

The template is installed the way a third party installs a backend: with pip, into a fresh
virtual environment, next to ember-core and ember-cpu from this checkout. The conformance kit
then runs on it in that environment, in a subprocess, and its JSON report must show every
primitive the template has a kernel for passing, every other one a known gap that is missing
for that reason, and nothing failing.
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import os
import re
import site
import subprocess
import venv
from pathlib import Path
from types import ModuleType

import pytest

import ember
from ember import hookspecs
from ember.ops.primitive import primitive_classes
from ember.testing.cases.registry import all_cases
from ember.testing.conformance import BACKEND_CHECKS

REPO = Path(__file__).resolve().parents[1]
TEMPLATE = REPO / "contrib" / "backend-template"
GUIDE = REPO / "docs" / "writing-a-backend.md"


def template_kernels() -> ModuleType:
    """The template's kernel table, read from its source (it imports only NumPy)."""
    path = TEMPLATE / "ember_template" / "kernels.py"
    spec = importlib.util.spec_from_file_location("_ember_template_kernels", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def known_gaps() -> list[str]:
    text = (TEMPLATE / "tests" / "known_gaps.txt").read_text(encoding="utf-8")
    return [entry for line in text.splitlines() if (entry := line.split("#", 1)[0].strip())]


def table_primitives() -> set[str]:
    return {case.primitive for case in all_cases()}


# -- the template's declarations, without installing it ------------------------------------
def test_known_gaps_are_exactly_the_primitives_without_a_kernel() -> None:
    kernels = set(template_kernels().KERNELS)
    gaps = [gap for gap in known_gaps() if not gap.startswith("backend/")]  # primitives
    twice = sorted({gap for gap in gaps if gaps.count(gap) > 1})
    assert not twice, f"known_gaps.txt lists these twice: {twice}"
    missing = table_primitives() - kernels
    assert set(gaps) == missing, (
        "contrib/backend-template/tests/known_gaps.txt must list every primitive of the kit's "
        f"table the template has no kernel for: add {sorted(missing - set(gaps))}, remove "
        f"{sorted(set(gaps) - missing)}")
    unknown = kernels - {cls.__name__ for cls in primitive_classes()}
    assert not unknown, f"the template has kernels for primitives ember lacks: {sorted(unknown)}"


# -- the guide ------------------------------------------------------------------------------
def hook_specs() -> list[tuple[str, str]]:
    """(name, docstring) of every hook of the contract, in the order of hookspecs.py."""
    hooks = [fn for name, fn in inspect.getmembers(hookspecs, inspect.isfunction)
             if getattr(fn, "ember_spec", None) is not None]
    hooks.sort(key=lambda fn: fn.__code__.co_firstlineno)
    return [(fn.__name__, inspect.getdoc(fn) or "") for fn in hooks]


def test_guide_quotes_every_hook_in_the_order_of_the_contract() -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    specs = hook_specs()
    assert [name for name, _ in specs][:4] == [
        "ember_backends", "ember_eager_executor", "ember_graph_executor", "ember_context_changed"]
    positions = []
    for name, doc in specs:
        first = doc.splitlines()[0] if doc else ""
        assert first and first in guide, (
            f"docs/writing-a-backend.md must quote the docstring of hook {name} from "
            f"core/ember/hookspecs.py; its first line {first!r} is not in the guide")
        positions.append(guide.index(first))
    assert positions == sorted(positions), "the guide must walk through the hooks in order"


def test_guide_points_at_files_that_exist() -> None:
    guide = GUIDE.read_text(encoding="utf-8")
    roots = {"contrib/": REPO, "plugins/": REPO, "core/": REPO, "docs/": REPO,
             "ember/": REPO / "core", "ember_template/": TEMPLATE}
    named = set(re.findall(r"`((?:contrib|plugins|core|docs|ember|ember_template)/[\w./-]+)`",
                           guide))
    assert "contrib/backend-template/" in named
    absent = [path for path in sorted(named)
              if not (roots[path.split("/", 1)[0] + "/"] / path).exists()]
    assert not absent, f"docs/writing-a-backend.md names files that do not exist: {absent}"


# -- the template, installed by pip, through the conformance kit ----------------------------
def _offline_build_possible(python: Path) -> bool:
    """Whether the setuptools ``python`` sees builds editable wheels with nothing downloaded
    (its own bdist_wheel from 70.1 on; before, the ``wheel`` package's)."""
    probe = ("import importlib.util, re, setuptools; "
             "print(*re.findall(r'\\d+', setuptools.__version__)[:2], "
             "importlib.util.find_spec('wheel') is not None)")
    proc = subprocess.run([str(python), "-c", probe], capture_output=True, text=True,
                          env=_environment())
    if proc.returncode != 0:
        return False  # no setuptools: pip fetches it, as for any isolated build
    major, minor, wheel = proc.stdout.split()
    version = (int(major), int(minor))
    return version >= (70, 1) or (version >= (68, 0) and wheel == "True")


def _environment() -> dict[str, str]:
    """This process's environment, less what would steer the child's Python or pytest."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "EMBER_DEVICE_TARGET")
           and not key.startswith("PYTEST_")}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    return env


def _run(command: list[str], what: str, cwd: Path | None = None
         ) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(command, capture_output=True, text=True, env=_environment(), cwd=cwd,
                          timeout=300)
    assert proc.returncode == 0, (
        f"{what} exited with {proc.returncode}:\n{proc.stdout[-6000:]}\n{proc.stderr[-6000:]}")
    return proc


@pytest.fixture(scope="module")
def template_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with ember-core, ember-cpu and ember-template installed by
    pip from this checkout; NumPy, pytest, pluggy, protobuf, tqdm (and pip, setuptools) come
    from the environment running this test. Returns its Python."""
    home = tmp_path_factory.mktemp("template-venv")
    has_pip = importlib.util.find_spec("pip") is not None
    try:
        venv.EnvBuilder(system_site_packages=True, with_pip=not has_pip,
                        symlinks=os.name != "nt").create(home)
    except Exception as exc:  # no venv module, no ensurepip, a read-only filesystem
        pytest.skip(f"cannot create a virtual environment here: {type(exc).__name__}: {exc}")
    python = home / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                   "the new environment's Python").stdout.strip()
    # --system-site-packages shows the base interpreter's packages; when this test runs in a
    # virtual environment itself (tox, .venv), its packages are added after the new ones.
    ours = [p for p in site.getsitepackages() if Path(p).is_dir()]
    if site.ENABLE_USER_SITE and Path(site.getusersitepackages()).is_dir():
        ours.append(site.getusersitepackages())
    (Path(purelib) / "zz_ember_test_environment.pth").write_text("\n".join(ours) + "\n")
    offline = ["--no-build-isolation", "--no-index"] if _offline_build_possible(python) else []
    _run([str(python), "-m", "pip", "install", "-q", "--no-deps", *offline,
          "-e", str(REPO), "-e", str(REPO / "plugins" / "cpu"), "-e", str(TEMPLATE)],
         "pip install")
    return python


def test_template_passes_the_conformance_kit(template_env: Path, tmp_path: Path) -> None:
    report_path = tmp_path / "report.json"
    proc = _run([str(template_env), "-m", "pytest", str(TEMPLATE / "tests"), "-q", "--tb=line",
                 "-p", "no:cacheprovider", f"--ember-report={report_path}"],
                "the conformance kit on the template", cwd=REPO)
    assert "ember conformance: Template" in proc.stdout
    report = json.loads(report_path.read_text(encoding="utf-8"))

    assert (report["backend"], report["backend_distribution"], report["backend_api_version"],
            report["core_version"]) == ("Template", "ember-template", "1.0", ember.__version__)
    assert report["known_gaps_files"] == [str((TEMPLATE / "tests" / "known_gaps.txt").resolve())]
    summary = report["summary"]
    assert summary["fail"] == 0 and summary["skip"] == 0, summary
    assert summary["pass"] > 500 and summary["known gap"] > 0, summary

    kernels = set(template_kernels().KERNELS)
    primitives = report["primitives"]
    assert set(primitives) == table_primitives()
    wrong = {name: row["outcome"] for name, row in primitives.items()
             if row["outcome"] != ("pass" if name in kernels else "known gap")}
    assert not wrong, f"primitives whose outcome is not pass (kernel) or known gap (none): {wrong}"
    assert {"Add", "MatMul", "ReduceMean", "Transpose", "ReLU", "Cast"} <= {
        name for name, row in primitives.items() if row["outcome"] == "pass"}

    missing = re.compile(r"MissingKernelError: the Template \(ember-template\) backend has no "
                         r"kernel for primitive (\w+)")
    for case in report["cases"]:
        if case["outcome"] == "known gap":  # missing, not wrong: the error names a primitive
            found = missing.search(case["message"])  # (an in-place case's Assign, maybe)
            assert found and found.group(1) not in kernels, case
    checks = {check["check"]: check["outcome"] for check in report["backend_checks"]}
    listed = {line.split("#")[0].strip().removeprefix("backend/")
              for line in (TEMPLATE / "tests" / "known_gaps.txt").read_text().splitlines()}
    assert checks == {check: "known gap" if check in listed else "pass"
                      for check in BACKEND_CHECKS}


def test_the_kit_checks_fallback_results_like_kernels(template_env: Path, tmp_path: Path) -> None:
    """With --ember-fallback=CPU, the primitives the template lacks (Conv2D) run on the CPU
    backend, data moved across, and must pass the same checks; no known gaps listed."""
    no_gaps = tmp_path / "none.txt"
    no_gaps.write_text("# none\n")
    report_path = tmp_path / "report.json"
    _run([str(template_env), "-m", "pytest", str(TEMPLATE / "tests" / "test_conformance.py"),
          "-q", "--tb=line", "-p", "no:cacheprovider", "-k", "Conv2D/ or Add/broadcast",
          "-W", "ignore::UserWarning", "--ember-fallback=CPU",
          f"--ember-known-gaps={no_gaps}", f"--ember-report={report_path}"],
         "the kit on the template with fallback", cwd=REPO)
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert "Conv2D" not in template_kernels().KERNELS
    conv = report["primitives"]["Conv2D"]  # passed, by the CPU's kernel: counted apart
    assert conv["outcome"] == "fallback" and conv["pass"] == 0 and conv["fallback"] > 0
    assert all("Conv2D" in case["fallback"] for case in report["cases"]
               if case["primitive"] == "Conv2D")
    assert report["primitives"]["Add"]["outcome"] == "pass"  # the template's own kernel
    assert report["summary"]["fail"] == 0 and report["summary"]["known gap"] == 0
    assert report["summary"]["fallback"] == sum(
        row["fallback"] for row in report["primitives"].values())
