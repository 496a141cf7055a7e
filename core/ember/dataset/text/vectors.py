"""Pre-trained word vectors and ``ToVectors``, as ``mindspore.dataset.text``: ``Vectors`` (any
file of ``token v1 v2 ...`` lines), ``FastText`` (``*.vec``), ``GloVe`` (``glove.6B.*.txt``) and
``CharNGram`` (character n-gram vectors, which build a word's vector from its n-grams)."""

from __future__ import annotations

import os

import numpy as np

from ember.dataset._checks import check_value, type_check
from ember.dataset.transforms._base import TensorOperation

_INT32_MAX = 2**31 - 1


class Vectors:
    """Token vectors read from a file, as ``mindspore.dataset.text.Vectors``.

    Each line is a token, a space, then its values separated by spaces; lines of two fields
    before the first vector are a header and are skipped. All vectors need the same length
    (``dim``); a token seen again keeps its first vector. Build one with ``from_file``.
    """

    def __init__(self, table: dict[str, np.ndarray], dim: int) -> None:
        self._table, self.dim = table, dim

    @classmethod
    def from_file(cls, file_path: str, max_vectors: int | None = None) -> Vectors:
        """The vectors of ``file_path``; ``max_vectors`` reads only that many lines of vectors
        (None or 0: all)."""
        type_check(file_path, (str,), "file_path")
        if max_vectors is not None:
            type_check(max_vectors, (int,), "max_vectors")
            check_value(max_vectors, 0, _INT32_MAX, "max_vectors")
        cls._check_file(file_path)
        if not os.path.exists(file_path):
            raise RuntimeError(f"Vectors: get real path failed, path: {file_path}")
        with open(file_path, encoding="utf-8") as file:
            lines = file.read().splitlines()
        while lines and len(lines[0].split(" ")) == 2:  # a header: the count and the dimension
            lines.pop(0)
        if not lines:
            raise RuntimeError("Vectors: invalid file, file is empty.")
        dim = len(lines[0].split(" ")) - 1
        table: dict[str, np.ndarray] = {}
        for line in lines[:max_vectors or None]:
            token, _, rest = line.partition(" ")
            values = rest.split()
            if len(values) <= 1:
                raise RuntimeError("Vectors: token with 1-dimensional vector.")
            if len(values) != dim:
                raise RuntimeError("Vectors: all vectors must have the same number of "
                                   f"dimensions, but got dim {len(values)} while expecting {dim}")
            table.setdefault(token, np.array(values, dtype=np.float32))
        return cls(table, dim)

    @classmethod
    def _check_file(cls, file_path: str) -> None:
        """Refuse a file that this kind of vectors does not take."""

    def lookup(self, token: str, unknown: np.ndarray, lower_case_backup: bool) -> np.ndarray:
        """The vector of ``token`` (looked up lower-cased with ``lower_case_backup``, as
        MindSpore 1.6's kernel does), else ``unknown``."""
        return self._table.get(token.lower() if lower_case_backup else token, unknown)


class FastText(Vectors):
    """FastText's pre-trained vectors (a ``*.vec`` file), as ``mindspore.dataset.text.FastText``."""

    @classmethod
    def _check_file(cls, file_path: str) -> None:
        if not os.path.isfile(file_path):
            raise RuntimeError("FastText: invalid file, failed to open FastText file.")
        if not file_path.endswith(".vec"):
            raise RuntimeError("FastText: invalid file, can not find file '*.vec', but got: "
                               f"{file_path}")


class GloVe(Vectors):
    """GloVe's pre-trained vectors (a ``glove.6B.*.txt`` file), as
    ``mindspore.dataset.text.GloVe``."""

    @classmethod
    def _check_file(cls, file_path: str) -> None:
        if not os.path.isfile(file_path):
            raise RuntimeError("GloVe: invalid file, failed to open GloVe file.")
        name = os.path.basename(file_path)
        if not (name.startswith("glove.6B.") and name.endswith(".txt")):
            raise RuntimeError("GloVe: invalid file, can not find file 'glove.6B.*.txt', but "
                               f"got: {file_path}")


class CharNGram(Vectors):
    """Character n-gram vectors (keys ``2gram-ab``, ``3gram-abc``, ``4gram-abcd``), as
    ``mindspore.dataset.text.CharNGram``: a word's vector is the mean of the vectors of its
    2-, 3- and 4-grams that have one, the word framed by ``#BEGIN#`` and ``#END#``."""

    def lookup(self, token: str, unknown: np.ndarray, lower_case_backup: bool) -> np.ndarray:
        chars = ["#BEGIN#", *(token.lower() if lower_case_backup else token), "#END#"]
        found = [self._table[key] for n in (2, 3, 4) for i in range(len(chars) - n + 1)
                 if (key := f"{n}gram-{''.join(chars[i:i + n])}") in self._table]
        return np.mean(found, axis=0, dtype=np.float32) if found else unknown


class ToVectors(TensorOperation):
    """Each token as its vector in ``vectors``, as ``mindspore.dataset.text.ToVectors``: one
    token gives a 1-D float32 vector, several an array of one vector per token. A token without
    a vector gets ``unk_init`` (default: zeros); ``lower_case_backup`` looks tokens up
    lower-cased."""

    def __init__(self, vectors: Vectors, unk_init: list[float] | None = None,
                 lower_case_backup: bool = False) -> None:
        type_check(vectors, (Vectors,), "vectors")
        if unk_init is not None:
            type_check(unk_init, (list, tuple), "unk_init")
            for i, value in enumerate(unk_init):
                type_check(value, (int, float), f"unk_init[{i}]")
        type_check(lower_case_backup, (bool,), "lower_case_backup")
        self.vectors, self.lower_case_backup = vectors, lower_case_backup
        self.unk_init = [] if unk_init is None else list(unk_init)

    def _apply(self, tokens: np.ndarray) -> np.ndarray:
        if tokens.dtype.kind not in "SU":
            raise RuntimeError("Unexpected error. ToVectors: input tensor type should be string.")
        dim = self.vectors.dim
        if self.unk_init and len(self.unk_init) != dim:
            raise RuntimeError("Unexpected error. ToVectors: unk_init must be the same length "
                               f"as vectors, but got unk_init: {len(self.unk_init)} and "
                               f"vectors: {dim}")
        unknown = np.array(self.unk_init or [0.0] * dim, dtype=np.float32)
        words = tokens.reshape(-1)
        if words.dtype.kind == "S":
            words = np.char.decode(words, "utf-8")
        found = [self.vectors.lookup(str(w), unknown, self.lower_case_backup) for w in words]
        if len(found) == 1:
            return found[0].copy()
        return np.stack(found) if found else np.zeros((0, dim), np.float32)
