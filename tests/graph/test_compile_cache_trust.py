"""The compile cache is trusted input, but a damaged or inconsistent entry never changes what a
net computes: it is re-checked at load (every node's shape and dtype inferred again), and a bad
entry warns, is compiled again and overwritten. Paths are checked when they are set."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pytest

from ember import Tensor, context, nn
from ember.graph.compiler import compile_stats


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(self.fc(x))


X = np.arange(6, dtype=np.float32).reshape(2, 3) - 3.0
EXPECTED = np.maximum(X @ np.ones((3, 2), np.float32), 0)


def _run(cache: Path) -> np.ndarray:
    context.set_context(mode=context.GRAPH_MODE, enable_compile_cache=True,
                        compile_cache_path=str(cache))
    out = Net()(Tensor(X))
    assert out.shape == out.asnumpy().shape
    return out.asnumpy()


def _entry(cache: Path) -> Path:
    (entry,) = (cache / "ember_graphs").glob("Net_*.json")
    return entry


def _rewrite(entry: Path, edit) -> None:
    """Edit the JSON of an entry and recompute its checksum, as a consistent edit would."""
    head, _, body = entry.read_bytes().partition(b"\n")
    doc = json.loads(body)
    edit(doc)
    body = json.dumps(doc, separators=(",", ":")).encode()
    magic, version, _ = head.split(b" ")
    entry.write_bytes(b" ".join([magic, version, hashlib.sha256(body).hexdigest().encode()])
                      + b"\n" + body)


def _relu_node(doc):
    relu = next(i for i, p in enumerate(doc["prims"]) if p["class"].endswith(".ReLU"))
    return next(n for n in doc["nodes"] if n["prim"] == relu)


def _fake_shape(doc):
    _relu_node(doc)["outputs"][0]["shape"] = [7]


def _fake_dtype(doc):
    _relu_node(doc)["outputs"][0]["dtype"] = "Float16"


def _fake_input(doc):
    doc["inputs"][0]["shape"] = [5, 3]


@pytest.mark.parametrize("edit", [_fake_shape, _fake_dtype, _fake_input])
def test_a_shape_or_dtype_lie_in_a_rehashed_entry_is_caught_and_recompiled(tmp_path, edit):
    _run(tmp_path)
    entry = _entry(tmp_path)
    _rewrite(entry, edit)
    before = compile_stats()
    with pytest.warns(UserWarning, match=r"compile cache.*Net_.*compiled again"):
        out = _run(tmp_path)
    np.testing.assert_allclose(out, EXPECTED)
    after = compile_stats()
    assert after["traces"] == before["traces"] + 1
    assert after["cache_loads"] == before["cache_loads"]
    # overwritten with the good graph: the next process (here: a new cell) loads it
    _run(tmp_path)
    assert compile_stats()["cache_loads"] == after["cache_loads"] + 1


@pytest.mark.parametrize("damage", ["checksum", "truncated", "empty", "directory"])
def test_a_damaged_entry_warns_recompiles_and_is_overwritten(tmp_path, damage):
    _run(tmp_path)
    entry = _entry(tmp_path)
    raw = entry.read_bytes()
    if damage == "checksum":
        entry.write_bytes(raw.replace(b'"Net"', b'"Nat"'))
    elif damage == "truncated":
        entry.write_bytes(raw[: len(raw) // 2])
    elif damage == "empty":
        entry.write_bytes(b"")
    else:
        entry.unlink()
        (entry / "inside").mkdir(parents=True)
    with pytest.warns(UserWarning, match="compiled again"):
        np.testing.assert_allclose(_run(tmp_path), EXPECTED)
    assert entry.is_file() and entry.read_bytes() == raw
    loads = compile_stats()["cache_loads"]
    np.testing.assert_allclose(_run(tmp_path), EXPECTED)
    assert compile_stats()["cache_loads"] == loads + 1


def test_the_default_cache_directory_is_per_user(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    context.reset_context()
    assert context.get_context("compile_cache_path") == str(tmp_path / "xdg" / "ember")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    context.reset_context()
    assert context.get_context("compile_cache_path") == str(
        tmp_path / "home" / ".cache" / "ember")


@pytest.mark.parametrize("key", ["compile_cache_path", "save_graphs_path"])
@pytest.mark.parametrize("where", ["under_file", "proc", "nul"])
def test_an_uncreatable_directory_is_refused_when_set(tmp_path, key, where):
    (tmp_path / "file").write_text("x")
    path = {"under_file": str(tmp_path / "file" / "sub"), "proc": "/proc/ember-cache",
            "nul": str(tmp_path / "a\0b")}[where]
    before = context.get_context(key)
    with pytest.raises(ValueError, match=key):
        context.set_context(**{key: path})
    assert context.get_context(key) == before


def test_save_graphs_path_is_created_when_set(tmp_path):
    target = tmp_path / "a" / "graphs"
    context.set_context(save_graphs_path=str(target))
    assert target.is_dir()


ODD = "re\0lu\n"


class Odd(Net):
    def __init__(self):
        super().__init__()
        setattr(self, ODD, nn.ReLU())  # its scope name, in comments of generated code, has NUL

    def construct(self, x):
        return getattr(self, ODD)(self.fc(x))


def test_control_characters_never_reach_generated_code_or_file_names(tmp_path):
    context.set_context(mode=context.GRAPH_MODE, save_graphs=True,
                        save_graphs_path=str(tmp_path))
    net = type("Odd\nNet/../" + "N" * 300, (Odd,), {})()
    np.testing.assert_allclose(net(Tensor(X)).asnumpy(), EXPECTED)
    names = os.listdir(tmp_path)
    assert names and all(len(n) < 120 and "\n" not in n and "/" not in n for n in names)
    assert all(p.parent == tmp_path for p in tmp_path.rglob("*"))
    (backend,) = tmp_path.glob("*_backend.py")
    assert "\0" not in backend.read_text() and "ReLU" in backend.read_text()
