"""Readers of text files, as ``mindspore.dataset``: ``TextFileDataset`` (one row per line) and
``CLUEDataset`` (one JSON object per line, the CLUE benchmark's tasks).

Each reads its files when made; ``num_samples``, ``shuffle``, ``num_shards``/``shard_id`` and
``num_parallel_workers`` are as ``FileRowsDataset``'s. Strings are scalar arrays of UTF-8 bytes,
as MindSpore 1.6 gives them.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ember.dataset._checks import find_files
from ember.dataset.engine import Row
from ember.dataset.filerows import FileRowsDataset, Shuffle


def read_lines(path: str) -> list[bytes]:
    """The lines of a file, without their ``\\n`` and leaving out empty lines, as MindSpore's
    text readers read them."""
    with open(path, "rb") as file:
        return [line for line in file.read().split(b"\n") if line]


class TextFileDataset(FileRowsDataset):
    """The lines of text files, as ``mindspore.dataset.TextFileDataset``: one column ``text``,
    a line per row (empty lines left out). ``dataset_files``: a path, a glob pattern or a list
    of them, read in sorted order."""

    def __init__(self, dataset_files: str | list[str], num_samples: int | None = None,
                 num_parallel_workers: int | None = None,
                 shuffle: bool | Shuffle | None = Shuffle.GLOBAL, num_shards: int | None = None,
                 shard_id: int | None = None) -> None:
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id)
        self._names = ["text"]
        self._files = [[(np.array(line),) for line in read_lines(path)]
                       for path in sorted(find_files(dataset_files, self._where))]


_CLUE_KEYS = {  # the columns of each task and usage: (for train and eval, for test, for all)
    "AFQMC": (["label"], ["id"], ["sentence1", "sentence2"]),
    "CMNLI": (["label"], ["id"], ["sentence1", "sentence2"]),
    "CSL": (["label"], [], ["id", "abst", "keyword"]),
    "IFLYTEK": (["label", "label_des"], ["id"], ["sentence"]),
    "TNEWS": (["label", "label_desc"], ["id"], ["sentence", "keywords"]),
    "WSC": (["label"], [], ["span1_index", "span2_index", "span1_text", "span2_text", "idx",
                            "text"]),
}


def _json_value(value: Any, path: str) -> np.ndarray:
    """A JSON value as MindSpore's CLUE reader types it: a string as bytes, a non-negative int
    uint32, a negative one int32, a float float32, a list of strings a 1-D string array."""
    if isinstance(value, str):
        return np.array(value.encode("utf-8"))
    if isinstance(value, bool) or value is None or isinstance(value, dict):
        raise RuntimeError(f"CLUEDataset: {path}: a value of type {type(value).__name__} "
                           f"({value!r:.40}) is not a string, a number or a list of strings")
    if isinstance(value, int):
        return np.array(value, np.uint32 if value >= 0 else np.int32)
    if isinstance(value, float):
        return np.array(value, np.float32)
    return np.array([str(v).encode("utf-8") for v in value], dtype=np.bytes_)


class CLUEDataset(FileRowsDataset):
    """CLUE's JSON-lines files, as ``mindspore.dataset.CLUEDataset``.

    ``task``: 'AFQMC' (default), 'TNEWS', 'IFLYTEK', 'CMNLI', 'WSC' or 'CSL'; ``usage``:
    'train' (default), 'test' or 'eval'. The columns are the task's keys that the usage has
    (a test split has ``id`` instead of the labels), in sorted order, as MindSpore's; WSC's
    ``span*`` keys are read from its ``target`` object.
    """

    def __init__(self, dataset_files: str | list[str], task: str = "AFQMC", usage: str = "train",
                 num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | Shuffle | None = Shuffle.GLOBAL, num_shards: int | None = None,
                 shard_id: int | None = None) -> None:
        if not isinstance(dataset_files, str | list):
            raise TypeError(f"CLUEDataset: Argument dataset files with value {dataset_files!r} "
                            f"is not of type [<class 'str'>, <class 'list'>], but got "
                            f"{type(dataset_files)}.")
        if task not in _CLUE_KEYS:
            raise ValueError("task should be 'AFQMC', 'TNEWS', 'IFLYTEK', 'CMNLI', 'WSC' or "
                             "'CSL'.")
        if usage not in ("train", "test", "eval"):
            raise ValueError("usage should be 'train', 'test' or 'eval'.")
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id)
        labels, test_keys, keys = _CLUE_KEYS[task]
        self._names = sorted(keys + (test_keys if usage == "test" else labels))
        self._files = [[self._parse(line, path) for line in read_lines(path)]
                       for path in sorted(find_files(dataset_files, self._where))]

    def _parse(self, line: bytes, path: str) -> Row:
        try:
            record = json.loads(line)
        except ValueError as error:
            raise RuntimeError(f"Invalid json, failed to parse {path}, {error}") from None
        row = []
        for name in self._names:
            value = record.get("target", {}) if name.startswith("span") else record
            if name not in value:
                raise RuntimeError("Invalid json file, in given JSON file, failed to find key: "
                                   f"{name} ({path})")
            row.append(_json_value(value[name], path))
        return tuple(row)
