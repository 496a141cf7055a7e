"""Text transforms on NumPy string arrays, as ``mindspore.dataset.text.transforms``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ember.common import dtype as mstype
from ember.dataset._checks import type_check
from ember.dataset.text._icu import compile_icu
from ember.dataset.text.tokenizers import (
    BasicTokenizer,
    BertTokenizer,
    RegexTokenizer,
    UnicodeCharTokenizer,
    WhitespaceTokenizer,
    WordpieceTokenizer,
    case_fold,
    normalize,
    strings,
)
from ember.dataset.text.utils import NormalizeForm, Vocab
from ember.dataset.text.vectors import ToVectors  # noqa: F401 (1.6's path)
from ember.dataset.transforms._base import TensorOperation, check_number


class Lookup(TensorOperation):
    """Each word as its id in ``vocab``; a word not in it gets ``unknown_token``'s id (an
    error when ``unknown_token`` is None). The ids are ``data_type`` (int32)."""

    def __init__(self, vocab: Vocab, unknown_token: str | None = None,
                 data_type: mstype.Type = mstype.int32) -> None:
        if unknown_token is not None:
            type_check(unknown_token, (str,), "unknown_token")
        type_check(vocab, (Vocab,), "vocab is not an instance of text.Vocab.")
        type_check(data_type, (mstype.Type,), "data_type")
        if data_type.np_dtype.kind not in "biuf":
            raise RuntimeError("Lookup : The parameter data_type must be numeric including bool.")
        self._unknown = None if unknown_token is None else vocab.tokens_to_ids(unknown_token)
        if self._unknown == -1:
            raise RuntimeError(f"Lookup: \"{unknown_token}\" doesn't exist in vocab.")
        self.vocab, self.unknown_token, self.data_type = vocab, unknown_token, data_type

    def _apply(self, words: np.ndarray) -> np.ndarray:
        words = strings(words, "Lookup")
        ids = np.array(self.vocab.tokens_to_ids(words.reshape(-1).tolist()), dtype=np.int64)
        missing = ids == -1
        if missing.any():
            if self._unknown is None:
                word = words.reshape(-1)[missing][0]
                raise RuntimeError(f"Lookup: token: \"{word}\" doesn't exist in vocab and no "
                                   "unknown token is specified.")
            ids[missing] = self._unknown
        return ids.reshape(words.shape).astype(self.data_type.np_dtype)


class PythonTokenizer:
    """A Python function ``tokenizer(str) -> list of str`` applied to each string of the
    input, as MindSpore's: a scalar string gives a 1-D array of tokens."""

    def __init__(self, tokenizer: Any) -> None:
        if not callable(tokenizer):
            raise TypeError("tokenizer is not a callable Python function.")
        self.pyfunc = tokenizer
        self.tokenizer = np.vectorize(lambda x: np.array(tokenizer(x), dtype="U"),
                                      signature="()->(n)")

    def __call__(self, in_array: Any) -> np.ndarray:
        if not isinstance(in_array, np.ndarray):
            raise TypeError(f"input should be a NumPy array. Got {type(in_array)}.")
        try:
            return self.tokenizer(strings(in_array, "PythonTokenizer"))
        except Exception as e:
            name = getattr(self.pyfunc, "__name__", type(self.pyfunc).__name__)
            raise RuntimeError(f"Error occurred in Pyfunc [{name}], error message: {e}") from e


class SlidingWindow(TensorOperation):
    """Windows of ``width`` consecutive elements along ``axis`` of a 1-D input: shape
    ``(n - width + 1, width)``, or an empty 1-D array when ``n < width`` (as MindSpore)."""

    def __init__(self, width: int, axis: int = 0) -> None:
        self.width = check_number(width, "SlidingWindow", "width", 1, integer=True)
        check_number(axis, "SlidingWindow", "axis", integer=True)
        self.axis = axis

    def _apply(self, array: np.ndarray) -> np.ndarray:
        if self.axis not in (0, -1):
            raise RuntimeError(f"SlidingWindow: The parameter axis supports 0 or -1 only for "
                               f"now, but got {self.axis}.")
        if array.ndim != 1:
            raise RuntimeError(f"SlidingWindow: SlidingWindow supports 1D input only for now, "
                               f"but got {array.ndim}D.")
        if array.size < self.width:
            return np.empty((0,), dtype=array.dtype)
        return np.lib.stride_tricks.sliding_window_view(array, self.width).copy()


class ToNumber(TensorOperation):
    """Strings parsed as numbers of ``data_type``; a string that is not one, or out of the
    type's range, is an error."""

    def __init__(self, data_type: mstype.Type) -> None:
        if not isinstance(data_type, mstype.Type):
            raise TypeError(f"Argument data_type with value {data_type} is not of type "
                            f"[{mstype.Type}], but got {type(data_type)}.")
        if data_type.np_dtype.kind not in "iuf":
            raise TypeError(f"data_type: {data_type} is not numeric data type.")
        self.data_type = data_type

    def _apply(self, texts: np.ndarray) -> np.ndarray:
        texts = strings(texts, "ToNumber")
        dtype = self.data_type.np_dtype
        info = np.iinfo(dtype) if dtype.kind in "iu" else np.finfo(dtype)
        values = []
        for s in texts.reshape(-1).tolist():
            try:
                value = int(s) if dtype.kind in "iu" else float(s)
            except ValueError:
                raise RuntimeError(f"ToNumber: it is invalid to convert \"{s}\" to a number "
                                   f"of {dtype}") from None
            if not info.min <= value <= info.max:
                raise RuntimeError(f"ToNumber: string input {s} will be out of bounds if cast "
                                   f"to {dtype}: outside of valid {dtype} range, valid range "
                                   f"is: [{info.min}, {info.max}]")
            values.append(value)
        return np.array(values, dtype=dtype).reshape(texts.shape)




class CaseFold(TensorOperation):
    """Strings case-folded as ICU's NFKC_Casefold (more aggressive than lower-casing)."""

    def _apply(self, texts: np.ndarray) -> np.ndarray:
        return _map_strings(case_fold, texts, "CaseFold")


class NormalizeUTF8(TensorOperation):
    """Strings in Unicode normalization form ``normalize_form`` (NormalizeForm.NONE: as they
    are)."""

    def __init__(self, normalize_form: NormalizeForm = NormalizeForm.NFKC) -> None:
        if not isinstance(normalize_form, NormalizeForm):
            raise TypeError("Wrong input type for normalization_form, should be enum of "
                            "'NormalizeForm'.")
        self.normalize_form = normalize_form

    def _apply(self, texts: np.ndarray) -> np.ndarray:
        return _map_strings(lambda t: normalize(t, self.normalize_form), texts, "NormalizeUTF8")


def _map_strings(fn: Any, texts: np.ndarray, where: str) -> np.ndarray:
    texts = strings(texts, where)
    out = [fn(t) for t in texts.reshape(-1).tolist()]
    return np.array(out, dtype=str).reshape(texts.shape)


def _icu_replacement(replace: str) -> list[str | int]:
    """An ICU replacement text as literal pieces and group numbers (``$1``, ``\\$``)."""
    pieces: list[str | int] = []
    i = 0
    while i < len(replace):
        c = replace[i]
        if c == "\\" and i + 1 < len(replace):
            pieces.append(replace[i + 1])
            i += 2
        elif c == "$" and i + 1 < len(replace) and replace[i + 1].isdigit():
            j = i + 1
            while j < len(replace) and replace[j].isdigit():
                j += 1
            pieces.append(int(replace[i + 1:j]))
            i = j
        else:
            pieces.append(c)
            i += 1
    return pieces


class RegexReplace(TensorOperation):
    """The matches of ``pattern`` (ICU syntax) replaced by ``replace`` (``$n`` is group n);
    only the first match unless ``replace_all``."""

    def __init__(self, pattern: str, replace: str, replace_all: bool = True) -> None:
        type_check(pattern, (str,), "pattern")
        type_check(replace, (str,), "replace")
        type_check(replace_all, (bool,), "replace_all")
        self.pattern, self.replace, self.replace_all = pattern, replace, replace_all
        self._regex = compile_icu(pattern, "RegexReplace")
        pieces = _icu_replacement(replace)
        self._repl = lambda m: "".join(p if isinstance(p, str) else (m.group(p) or "")
                                       for p in pieces)

    def _apply(self, texts: np.ndarray) -> np.ndarray:
        count = 0 if self.replace_all else 1
        return _map_strings(lambda t: self._regex.sub(self._repl, t, count=count), texts,
                            "RegexReplace")


class Ngram(TensorOperation):
    """The n-grams of a 1-D string array for each n of ``n`` in turn, joined by ``separator``,
    after ``left_pad``/``right_pad`` ``(token, width)`` padding (width capped at n - 1); an n
    longer than the padded sequence gives one empty string."""

    def __init__(self, n: int | list[int], left_pad: tuple[str, int] = ("", 0),
                 right_pad: tuple[str, int] = ("", 0), separator: str = " ") -> None:
        n = [n] if isinstance(n, int) else n
        if not (isinstance(n, list) and n != []):
            raise ValueError("n needs to be a non-empty list of positive integers.")
        for i, gram in enumerate(n):
            type_check(gram, (int,), f"gram[{i}]")
            if gram <= 0:
                raise ValueError(f"Input gram_{i} must be greater than 0.")
        for side, pad in (("left", left_pad), ("right", right_pad)):
            if not (isinstance(pad, tuple) and len(pad) == 2 and isinstance(pad[0], str)
                    and isinstance(pad[1], int)):
                raise ValueError(f"{side}_pad needs to be a tuple of (str, int) str is pad token "
                                 f"and int is pad_width.")
        if left_pad[1] < 0 or right_pad[1] < 0:
            raise ValueError("padding width need to be positive numbers.")
        type_check(separator, (str,), "separator")
        self.ngrams, self.left_pad, self.right_pad, self.separator = n, left_pad, right_pad, \
            separator

    def _apply(self, words: np.ndarray) -> np.ndarray:
        words = strings(words, "Ngram")
        if words.ndim != 1:
            raise RuntimeError("Ngram: input is not a 1D data with string datatype.")
        out = []
        for n in self.ngrams:
            left = [self.left_pad[0]] * min(self.left_pad[1], n - 1)
            right = [self.right_pad[0]] * min(self.right_pad[1], n - 1)
            seq = left + words.tolist() + right
            grams = [self.separator.join(seq[i:i + n]) for i in range(len(seq) - n + 1)]
            out += grams or [""]
        return np.array(out, dtype=str)


class TruncateSequencePair(TensorOperation):
    """Two 1-D arrays cut at their ends until their lengths sum to at most ``max_length``,
    the longer one first (the second when they are equal)."""

    one_to_one = False

    def __init__(self, max_length: int) -> None:
        type_check(max_length, (int,), "max_length")
        if max_length < 0:
            raise ValueError(f"TruncateSequencePair : The parameter max_length must be greater "
                             f"than or equal to 0: {max_length}")
        self.max_length = max_length

    def _apply(self, *seqs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if len(seqs) != 2:
            raise RuntimeError(f"TruncateSequencePair: Expected two inputs, but got {len(seqs)} "
                               f"inputs.")
        first, second = seqs
        if first.ndim != 1 or second.ndim != 1:
            raise RuntimeError("TruncateSequencePair: both data column should be of rank 1.")
        n1, n2 = len(first), len(second)
        while n1 + n2 > self.max_length:
            if n1 > n2:
                n1 -= 1
            else:
                n2 -= 1
        return first[:n1], second[:n2]


__all__ = ["BasicTokenizer", "BertTokenizer", "CaseFold", "Lookup", "Ngram", "NormalizeUTF8",
           "PythonTokenizer", "RegexReplace", "RegexTokenizer", "SlidingWindow", "ToNumber",
           "TruncateSequencePair", "UnicodeCharTokenizer", "WhitespaceTokenizer",
           "WordpieceTokenizer"]
