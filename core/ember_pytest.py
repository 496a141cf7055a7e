"""The pytest plugin of ember's conformance kit (``ember.testing``).

A backend's test module runs the kit with ``from ember.testing.conformance import *``; this
plugin (auto-loaded through the ``pytest11`` entry point of ember-core under the name
``ember.testing.plugin``, or loaded with ``-p ember.testing.plugin``) adds:

``--ember-backend=DEVICE_TARGET``
    the backend under test; default: the ``ember_backend`` fixture, which a backend's
    conftest overrides, else ``"CPU"``.
``--ember-known-gaps=FILE``
    the backend's known gaps, one a line (``#`` starts a comment): a primitive (``Mul``), a
    primitive and dtype (``Mul:float16``), a case (``Mul/broadcast``), one test
    (``Mul/broadcast-float16``) or a backend check (``backend/context-hook``). Those tests
    are expected to fail (``xfail(strict=True)``): a gap that is fixed fails the run until
    it is removed from the list. Default: the file named by ``EMBER_KNOWN_GAPS`` in the
    test module, if it sets one.
``--ember-fallback=DEVICE_TARGET``
    set ``fallback_device_target`` while the kit runs: the primitives the backend lacks run
    on that backend, moved across, and are checked like any kernel (list them no longer as
    known gaps).
``--ember-report=PATH.json``
    write, at the end of the session, each test's outcome ("pass"; "fallback": passed, with
    its primitive run by ``--ember-fallback``'s backend; "fail"; or "known gap") with its
    case, primitive and dtype, the same per primitive and dtype, the backend checks, and the
    versions of the backend, of ember and of the backend API.
``--ember-write-gaps=FILE``
    write, at the end of the session, the known gaps that make this run green: every
    primitive, dtype, case or test that failed or is a known gap still failing, and every such
    backend check, grouped by family, each with its first failure's message. A starting list
    for a new backend (review it: a gap is a kernel to write, or one to fix); a known-gaps
    file that does not exist yet counts as empty when this option names it.

After the tests it prints one summary line per primitive family, and the kernels the backend
lacks (every MissingKernelError of the run, gradients' included). A session that runs no
test of the kit sees none of this: no output, no report. The plugin lives outside the ``ember``
package and imports only pytest and the standard library, so that every pytest run where
ember-core is installed does not import ember; ember is imported by the kit's test modules.

The report is a JSON object: ``format`` (2); ``backend``, ``backend_distribution``,
``backend_version``, ``backend_api_version``; ``core_version`` and ``api_version`` (of
ember-core); ``known_gaps_files``; ``summary`` (count per outcome); ``primitives`` (per
primitive: ``family``, ``outcome`` and per dtype the worst outcome of its cases, and the count
per outcome); ``cases`` (per test: ``id`` such as ``Add/broadcast-float32``, ``case``,
``primitive``, ``dtype``, ``family``, ``outcome``, unless it passed ``message``, and
``fallback``: the primitives it ran by fallback, if any);
``backend_checks`` (``id`` such as ``backend/missing-kernel``, ``check``, ``outcome``,
``message``). A listed gap that passes is a "fail" whose message says to remove it.
"""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

PLUGIN_NAME = "ember.testing.plugin"
MARKER = "ember_conformance"
#: The user property that carries a kit test's identity to the report (and across xdist).
INFO = "ember_conformance"
BACKEND = "ember_backend"
#: "fallback": the case passed, but its primitive ran on --ember-fallback's backend, not this one.
OUTCOMES = ("pass", "fallback", "fail", "known gap")
#: The user property that lists the primitives a test ran by fallback_device_target.
FALLBACK = "ember_fallback"
REPORT_FORMAT = 2
RESULTS_PLUGIN = "ember-conformance-results"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ember", "ember conformance kit (ember.testing)")
    group.addoption("--ember-backend", metavar="DEVICE_TARGET", default=None,
                    help="device_target whose backend the conformance kit tests (default: "
                         "the ember_backend fixture, else CPU)")
    group.addoption("--ember-known-gaps", metavar="FILE", default=None,
                    help="file of the backend's known gaps: Primitive, Primitive:dtype, a "
                         "case id or a test id per line; they become strict xfails")
    group.addoption("--ember-report", metavar="PATH", default=None,
                    help="write the conformance results as JSON to PATH")
    group.addoption("--ember-fallback", metavar="DEVICE_TARGET", default="",
                    help="run the primitives the backend lacks on this backend "
                         "(fallback_device_target), so the kit checks the fallback's results "
                         "like any kernel")
    group.addoption("--ember-write-gaps", metavar="FILE", default=None,
                    help="write the known gaps that make this run green to FILE (a starting "
                         "list for a new backend)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", f"{MARKER}(check=None): a test of ember's conformance kit (check: the "
                   "name of a backend-level check)")
    config.pluginmanager.register(Results(config), RESULTS_PLUGIN)


def pytest_unconfigure(config: pytest.Config) -> None:
    results = config.pluginmanager.get_plugin(RESULTS_PLUGIN)
    if results is not None:
        config.pluginmanager.unregister(results)


@pytest.fixture(scope="session")
def ember_backend() -> str:
    """The device_target the kit tests unless ``--ember-backend`` is given; a backend's
    conftest overrides this fixture to name its own."""
    return "CPU"


# -- known gaps -----------------------------------------------------------------------------
@dataclass
class KnownGaps:
    """The entries of one known-gaps file, each with its line number."""

    path: Path
    entries: dict[str, int] = field(default_factory=dict)

    @classmethod
    def read(cls, path: Path) -> KnownGaps:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise pytest.UsageError(f"ember known gaps: cannot read {path}: {exc}") from None
        gaps = cls(path)
        for number, line in enumerate(text.splitlines(), 1):
            entry = line.split("#", 1)[0].strip()
            if entry:
                gaps.entries.setdefault(entry, number)
        return gaps

    def check(self, valid: set[str]) -> None:
        """Every entry must name something in the kit's table, or the list has a typo."""
        for entry, number in self.entries.items():
            if entry not in valid:
                close = difflib.get_close_matches(entry, valid, n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                raise pytest.UsageError(
                    f"{self.path}:{number}: known gap '{entry}' names nothing in the "
                    "conformance table: write a primitive (Mul), a primitive and dtype "
                    "(Mul:float16), a case (Mul/broadcast), a test (Mul/broadcast-float16) "
                    f"or a backend check (backend/missing-kernel){hint}")

    def match(self, keys: tuple[str, ...]) -> str | None:
        """The reason of the xfail, when one of ``keys`` is listed."""
        for key in keys:
            if key in self.entries:
                return f"known gap ({self.path.name}:{self.entries[key]}: {key})"
        return None


def _gaps_file(item: pytest.Item) -> Path | None:
    option = item.config.getoption("ember_known_gaps")
    if option:
        return Path(option).resolve()
    module = getattr(item, "module", None)
    declared = getattr(module, "EMBER_KNOWN_GAPS", None)
    if module is None or declared is None:
        return None
    return (Path(module.__file__).parent / declared).resolve()


def _table_keys() -> set[str]:
    """Every name a known-gaps entry may use."""
    from ember.testing.cases.registry import all_cases
    from ember.testing.conformance import BACKEND_CHECKS

    keys = {f"backend/{check}" for check in BACKEND_CHECKS}
    for case in all_cases():
        keys.update((case.primitive, case.id))
        for dtype in case.dtypes:
            name = _dtype_name(dtype)
            keys.update((f"{case.primitive}:{name}", f"{case.id}-{name}"))
    return keys


def _dtype_name(dtype: Any) -> str:
    import numpy as np

    return np.dtype(dtype).name


def _identify(item: pytest.Item, marker: pytest.Mark, families: dict[str, str]) -> dict:
    """What the report and the known gaps know of one kit test."""
    check = marker.kwargs.get("check")
    if check:
        return {"id": f"backend/{check}", "check": check}
    params = item.callspec.params  # type: ignore[attr-defined]  # a parametrized Function
    case, dtype = params["case"], _dtype_name(params["dtype"])
    return {"id": f"{case.id}-{dtype}", "case": case.id, "primitive": case.primitive,
            "dtype": dtype, "family": families.get(case.id, "")}


def _gap_keys(info: dict) -> tuple[str, ...]:
    if "check" in info:
        return (info["id"],)
    return info["id"], info["case"], f"{info['primitive']}:{info['dtype']}", info["primitive"]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    kit = [(item, marker) for item in items
           if (marker := item.get_closest_marker(MARKER)) is not None]
    if not kit:
        return
    from ember.testing.cases.registry import case_families

    families = case_families()
    files: dict[Path, KnownGaps] = {}
    written = config.getoption("ember_write_gaps")
    if written and not Path(written).exists():  # this run writes the backend's first list
        files[Path(written).resolve()] = KnownGaps(Path(written).resolve())
    valid: set[str] | None = None
    for item, marker in kit:
        info = _identify(item, marker, families)
        path = _gaps_file(item)
        if path is not None:
            if path not in files:
                files[path] = KnownGaps.read(path)
                valid = valid or _table_keys()
                files[path].check(valid)
            reason = files[path].match(_gap_keys(info))
            if reason is not None:
                item.add_marker(pytest.mark.xfail(reason=reason, strict=True))
        item.user_properties.append((INFO, info))
    results = config.pluginmanager.get_plugin(RESULTS_PLUGIN)
    assert isinstance(results, Results)
    results.gap_files = sorted(map(str, files))


# -- results --------------------------------------------------------------------------------
class Results:
    """The outcome of every kit test of the session, by test id; registered as a plugin for
    the session, it writes the report and the summary."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.tests: dict[str, dict] = {}
        self.backend: str | None = None
        self.gap_files: list[str] = []

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        props: dict[str, Any] = dict(report.user_properties)
        info = props.get(INFO)
        if info is None or (report.when != "call" and report.passed):
            return  # not the kit's; or setup/teardown, which decide only when they fail
        self.backend = props.get(BACKEND, self.backend)
        outcome, message = _outcome(report)
        ran_elsewhere = props.get(FALLBACK)
        if outcome == "pass" and info.get("primitive") in (ran_elsewhere or ()):
            outcome = "fallback"
        entry = info | {"outcome": outcome}
        if ran_elsewhere:
            entry["fallback"] = ran_elsewhere
        if message:
            entry["message"] = message
        self.tests[info["id"]] = entry

    def cases(self) -> list[dict]:
        return [t for t in self.tests.values() if "check" not in t]

    def checks(self) -> list[dict]:
        return [t for t in self.tests.values() if "check" in t]

    @property
    def target(self) -> str | None:
        return self.config.getoption("ember_backend") or self.backend

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if hasattr(self.config, "workerinput"):  # xdist: the controller writes
            return
        path = self.config.getoption("ember_report")
        if path:
            _write(Path(path), json.dumps(self.report(), indent=1) + "\n")
        path = self.config.getoption("ember_write_gaps")
        if path and self.tests:
            _write(Path(path), self.gaps())

    def gaps(self) -> str:
        """The known-gaps file that makes this run green (``--ember-write-gaps``)."""
        lines = [f"# Known gaps of {self.target or '?'}, written by --ember-write-gaps: what "
                 "failed in that run, with the", "# first failure's message. Review it: a gap "
                 "is a kernel to write, or one to fix."]
        families: dict[str, list[dict]] = {}
        for row in self.cases():
            families.setdefault(row["family"] or "other", []).append(row)
        families["backend"] = self.checks()
        for family, rows in families.items():
            entries = _gap_entries(rows)
            if entries:
                lines += ["", f"# -- {family}"]
                lines += [f"{entry}  # {' '.join(_failure(row).split())[:120]}"
                          for entry, row in entries]
        return "\n".join(lines) + "\n"

    def report(self) -> dict:
        """The JSON report: versions, a summary, per primitive, per test, backend checks."""
        from ember import _plugins
        from ember.version import API_VERSION, __version__

        target = self.target
        spec = _plugins.registry().specs.get(target) if target else None
        version = _plugins.registry().versions.get(target) if target and spec else None
        cases = self.cases()
        return {
            "format": REPORT_FORMAT,
            "backend": target,
            "backend_distribution": spec.distribution if spec else None,
            "backend_version": version,
            "backend_api_version": spec.api_version if spec else None,
            "core_version": __version__,
            "api_version": f"{API_VERSION[0]}.{API_VERSION[1]}",
            "known_gaps_files": self.gap_files,
            "summary": {outcome: sum(t["outcome"] == outcome for t in self.tests.values())
                        for outcome in (*OUTCOMES, "skip")},
            "primitives": by_primitive(cases),
            "cases": cases,
            "backend_checks": self.checks(),
        }

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if not self.tests:
            return
        terminalreporter.write_sep("-", f"ember conformance: {self.target or '?'}")
        table = by_primitive(self.cases())
        families: dict[str, list[dict]] = {}
        for row in self.cases():
            families.setdefault(row["family"] or "other", []).append(row)
        for family, rows in families.items():
            members = {p: v for p, v in table.items() if (v["family"] or "other") == family}
            terminalreporter.write_line(_summary_line(family, rows, members))
        if self.checks():
            terminalreporter.write_line(_summary_line("backend", self.checks()))
        missing = sorted({name for row in self.tests.values()
                          for name in MISSING_KERNEL.findall(row.get("message", ""))})
        if missing:
            terminalreporter.write_line(f"missing kernels: {', '.join(missing)}")
        for option, what in (("ember_report", "report"), ("ember_write_gaps", "known gaps")):
            if self.config.getoption(option):
                terminalreporter.write_line(f"{what}: {self.config.getoption(option)}")


def _write(target: Path, text: str) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(target.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(target)


#: How a MissingKernelError names the primitive (``ember.backend.MissingKernelError``).
MISSING_KERNEL = re.compile(r"backend has no kernel for primitive (\w+)")
#: The start of the message of a listed gap that passes (see ``_outcome``).
FIXED_GAP = "listed as a known gap, but passes"


def _failure(row: dict) -> str:
    """The message of a failing test, without the known-gap prefix; "" for one that passes (a
    listed gap that passes included)."""
    message = row.get("message", "")
    if row["outcome"] == "known gap":
        return message.partition("): ")[2] or message or "known gap"
    if row["outcome"] == "fail" and not message.startswith(FIXED_GAP):
        return message or "failed"
    return ""


#: The names a known gap may give a test, widest first.
GAP_LEVELS = (lambda r: r["primitive"], lambda r: f"{r['primitive']}:{r['dtype']}",
              lambda r: r["case"], lambda r: r["id"])


def _gap_entries(rows: list[dict]) -> list[tuple[str, dict]]:
    """The fewest known-gap entries covering the failing ``rows`` and no passing one: a whole
    primitive, else a primitive's dtypes and cases of which every test fails, else tests."""
    if rows and "check" in rows[0]:
        return [(row["id"], row) for row in rows if _failure(row)]
    entries: list[tuple[str, dict]] = []
    by_primitive: dict[str, list[dict]] = {}
    for row in rows:
        by_primitive.setdefault(row["primitive"], []).append(row)
    for tests in by_primitive.values():
        covered: set[str] = set()
        for level in GAP_LEVELS:
            groups: dict[str, list[dict]] = {}
            for row in tests:
                groups.setdefault(level(row), []).append(row)
            for name, members in groups.items():
                if all(map(_failure, members)) and not covered >= {m["id"] for m in members}:
                    entries.append((name, members[0]))
                    covered.update(m["id"] for m in members)
    return entries


def _crash(report: pytest.TestReport) -> str:
    """The failure's one-line message (the exception), shortened for the report."""
    crash = getattr(report.longrepr, "reprcrash", None)
    lines = str(report.longrepr).strip().splitlines()
    message = crash.message if crash is not None else (lines[-1] if lines else "")
    return message[:2000]


def _outcome(report: pytest.TestReport) -> tuple[str, str]:
    if hasattr(report, "wasxfail"):
        if not report.skipped:
            return "pass", ""
        return "known gap", f"{report.wasxfail}: {_crash(report)}"
    if report.failed:
        text = str(report.longrepr)
        if text.startswith("[XPASS(strict)]"):
            return "fail", ("listed as a known gap, but passes: remove it from the known "
                            f"gaps ({text.removeprefix('[XPASS(strict)]').strip()})")
        phase = "" if report.when == "call" else f"error in {report.when}: "
        return "fail", phase + _crash(report)
    if report.skipped:
        longrepr = report.longrepr
        return "skip", longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return "pass", ""


def _worst(outcomes: list[str]) -> str:
    for outcome in ("fail", "known gap", "fallback", "pass"):
        if outcome in outcomes:
            return outcome
    return outcomes[0] if outcomes else "pass"


def by_primitive(cases: list[dict]) -> dict[str, dict]:
    """Per primitive: its family, the counts of outcomes and the outcome of each dtype (the
    worst of its cases: fail, then known gap, then fallback, then pass)."""
    grouped: dict[str, list[dict]] = {}
    for case in cases:
        grouped.setdefault(case["primitive"], []).append(case)
    table = {}
    for primitive, rows in sorted(grouped.items()):
        dtypes: dict[str, list[str]] = {}
        for row in rows:
            dtypes.setdefault(row["dtype"], []).append(row["outcome"])
        counts = Counter(row["outcome"] for row in rows)
        table[primitive] = {
            "family": rows[0]["family"],
            "outcome": _worst([row["outcome"] for row in rows]),
            "dtypes": {dtype: _worst(found) for dtype, found in dtypes.items()},
            **{outcome: counts.get(outcome, 0) for outcome in OUTCOMES},
        }
    return table


def _summary_line(label: str, rows: list[dict], primitives: dict[str, dict] | None = None
                  ) -> str:
    """``math: 700 pass, 2 fail, 30 known gap; fail: Add; known gap: Mul``."""
    counts = Counter(row["outcome"] for row in rows)
    text = f"{label + ':':<8} " + ", ".join(f"{counts.get(o, 0)} {o}" for o in OUTCOMES)
    if counts.get("skip"):
        text += f", {counts['skip']} skip"
    for outcome in ("fail", "known gap", "fallback"):
        if primitives is not None:
            named = [p for p, row in primitives.items() if row[outcome]]
        else:
            named = [row["check"] for row in rows if row["outcome"] == outcome]
        if named:
            text += f"; {outcome}: {', '.join(named)}"
    return text
