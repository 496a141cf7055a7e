"""Release metadata: the extras and the in-tree plugins are pinned to this release."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import ember

ROOT = Path(__file__).resolve().parents[1]


def _project(path: Path) -> dict:
    return tomllib.loads(path.read_text())["project"]


def test_backend_extras_pin_the_plugins_of_this_release():
    extras = _project(ROOT / "pyproject.toml")["optional-dependencies"]
    pinned = [req for reqs in extras.values() for req in reqs if req.startswith("ember-")
              and not req.startswith("ember-core")]
    assert pinned, extras
    for requirement in pinned:
        assert re.fullmatch(r"ember-[a-z]+==" + re.escape(ember.__version__), requirement), \
            requirement
    plugins = {_project(p)["name"] for p in ROOT.glob("plugins/*/pyproject.toml")}
    assert {req.split("==")[0] for req in pinned} <= plugins, "an extra names no in-tree plugin"


def test_in_tree_plugins_are_versioned_with_the_core_and_depend_on_it():
    for path in ROOT.glob("plugins/*/pyproject.toml"):
        project = _project(path)
        assert project["version"] == ember.__version__, path
        assert f"ember-core=={ember.__version__}" in project["dependencies"], path
        assert project["license"] == "Apache-2.0" and project["readme"] == "README.md", path
        assert (path.parent / "README.md").is_file(), path
