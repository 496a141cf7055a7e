"""Build every Ember distribution into a wheelhouse and install each extra from it.

    python contrib/release/wheelhouse.py WHEELHOUSE [--extras cpu,gpu,...]

Builds the wheels of ember-core and of every plugin under ``plugins/`` with ``python -m build``,
checks their metadata with ``twine check``, then, for each extra of ember-core, makes a fresh
venv, runs ``pip install "ember-core[EXTRA]" --find-links WHEELHOUSE`` and a smoke test in it:
the extras resolve exactly as they will from an index, and the backends they bring are found.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import tomllib
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: What each extra must make usable, checked in the fresh venv after installing it.
SMOKE = {
    "cpu": "from ember import Tensor, context, ops; context.set_context(device_target='CPU'); "
           "assert ops.add(Tensor([1.0]), Tensor([2.0])).asnumpy().tolist() == [3.0]",
    "gpu": "from ember import _plugins; "
           "assert 'GPU' in [s.device_target for s in _plugins.registry().statuses()]",
    "ascend": "from ember import _plugins; "
              "assert 'Ascend' in [s.device_target for s in _plugins.registry().statuses()]",
    "dist": "import mpi4py, ember.communication",
}


def run(*command: str | Path) -> None:
    print("+", " ".join(map(str, command)), flush=True)
    subprocess.run(list(map(str, command)), check=True)


def build(wheelhouse: Path) -> list[Path]:
    projects = [ROOT, *sorted(p.parent for p in (ROOT / "plugins").glob("*/pyproject.toml"))]
    for project in projects:
        run(sys.executable, "-m", "build", "--wheel", "--outdir", wheelhouse, project)
    wheels = sorted(wheelhouse.glob("*.whl"))
    run(sys.executable, "-m", "twine", "check", "--strict", *wheels)
    return wheels


def check_extra(extra: str, wheelhouse: Path) -> None:
    with tempfile.TemporaryDirectory(prefix=f"ember-{extra}-") as where:
        venv.create(where, with_pip=True)
        python = Path(where) / "bin" / "python"
        run(python, "-m", "pip", "install", "-q", f"ember-core[{extra}]",
            "--find-links", wheelhouse)
        run(python, "-m", "ember", "info")
        run(python, "-c", SMOKE[extra])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wheelhouse", type=Path)
    extras = [e for e in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
              ["optional-dependencies"] if e in SMOKE]
    parser.add_argument("--extras", default=",".join(extras),
                        help=f"comma-separated extras to install (default: {','.join(extras)})")
    args = parser.parse_args()
    args.wheelhouse.mkdir(parents=True, exist_ok=True)
    build(args.wheelhouse.resolve())
    for extra in filter(None, args.extras.split(",")):
        check_extra(extra, args.wheelhouse.resolve())
    print(f"wheelhouse {args.wheelhouse}: extras {args.extras} install and run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
