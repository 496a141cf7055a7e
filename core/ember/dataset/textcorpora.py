"""Readers of text corpora in their distributed layouts, as ``mindspore.dataset``: the CSV
corpora (AG News, Amazon Review, DBpedia, Sogou News, Yahoo Answers, Yelp Review), the
line corpora (Penn Treebank, WikiText, EnWik9), the tagged corpora (CoNLL-2000, UDPOS) and
IMDb's reviews (a source read by index).

Each reads the files of ``dataset_dir`` that ``usage`` names (the usage's file, or all of them
for 'all' or None, in sorted order) when made. ``num_samples``, ``shuffle``,
``num_shards``/``shard_id`` and ``num_parallel_workers`` are as ``FileRowsDataset``'s. Strings
are UTF-8 bytes, as MindSpore 1.6 gives them.
"""

from __future__ import annotations

import csv
import os
from abc import abstractmethod
from typing import Any, ClassVar

import numpy as np

from ember.dataset._checks import check_dir, check_usage
from ember.dataset.engine import Row
from ember.dataset.filerows import FileRowsDataset, Shuffle
from ember.dataset.sources import MappableDataset
from ember.dataset.textfiles import read_lines


class _Corpus(FileRowsDataset):
    """A corpus whose usages are files of ``dataset_dir``: ``_files_of`` maps each usage to its
    file name; ``_parse`` turns a file's bytes into rows of the columns ``_columns_of``."""

    _files_of: ClassVar[dict[str, str]]
    _columns_of: ClassVar[list[str]]

    def __init__(self, dataset_dir: str, usage: str | None = None,
                 num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | Shuffle | None = Shuffle.GLOBAL, num_shards: int | None = None,
                 shard_id: int | None = None) -> None:
        where = type(self).__name__
        check_dir(dataset_dir, where)
        usage = check_usage(usage, [*self._files_of, "all"], where)
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id)
        names = (self._files_of.values() if usage in (None, "all")
                 else [self._files_of[usage]])
        self._names = list(self._columns_of)
        self._files = []
        for path in sorted(os.path.join(dataset_dir, name) for name in names):
            if not os.path.isfile(path):
                raise RuntimeError(f"{where}: Invalid file path, {path} does not exist.")
            self._files.append(self._parse(path))

    @abstractmethod
    def _parse(self, path: str) -> list[Row]:
        """The rows of the file ``path``."""


class _CsvCorpus(_Corpus):
    """A corpus of ``train.csv`` and ``test.csv``, whose fields are string columns."""

    _files_of: ClassVar[dict[str, str]] = {"train": "train.csv", "test": "test.csv"}

    def _parse(self, path: str) -> list[Row]:
        width = len(self._columns_of)
        with open(path, newline="", encoding="utf-8") as file:
            records = [record for record in csv.reader(file) if record]
        for number, record in enumerate(records, 1):
            if len(record) != width:
                raise RuntimeError(f"{type(self).__name__}: {path} line {number} has "
                                   f"{len(record)} fields, but there are {width} columns "
                                   f"{self._columns_of}")
        return [tuple(np.array(field.encode("utf-8")) for field in record) for record in records]


class AGNewsDataset(_CsvCorpus):
    """AG News, as ``mindspore.dataset.AGNewsDataset``: columns ``index``, ``title``,
    ``description``."""

    _columns_of: ClassVar[list[str]] = ["index", "title", "description"]


class AmazonReviewDataset(_CsvCorpus):
    """Amazon Review (its ``full`` or ``polarity`` folder), as
    ``mindspore.dataset.AmazonReviewDataset``: columns ``label``, ``title``, ``content``."""

    _columns_of: ClassVar[list[str]] = ["label", "title", "content"]


class DBpediaDataset(_CsvCorpus):
    """DBpedia, as ``mindspore.dataset.DBpediaDataset``: columns ``class``, ``title``,
    ``content``."""

    _columns_of: ClassVar[list[str]] = ["class", "title", "content"]


class SogouNewsDataset(_CsvCorpus):
    """Sogou News, as ``mindspore.dataset.SogouNewsDataset``: columns ``index``, ``title``,
    ``content``."""

    _columns_of: ClassVar[list[str]] = ["index", "title", "content"]


class YahooAnswersDataset(_CsvCorpus):
    """Yahoo Answers, as ``mindspore.dataset.YahooAnswersDataset``: columns ``class``,
    ``title``, ``content``, ``answer``."""

    _columns_of: ClassVar[list[str]] = ["class", "title", "content", "answer"]


class YelpReviewDataset(_CsvCorpus):
    """Yelp Review (its ``full`` or ``polarity`` folder), as
    ``mindspore.dataset.YelpReviewDataset``: columns ``label``, ``text``."""

    _columns_of: ClassVar[list[str]] = ["label", "text"]


class _LineCorpus(_Corpus):
    """A corpus of one sentence per line (empty lines left out): column ``text``."""

    _columns_of: ClassVar[list[str]] = ["text"]

    def _parse(self, path: str) -> list[Row]:
        return [(np.array(line),) for line in read_lines(path)]


class PennTreebankDataset(_LineCorpus):
    """Penn Treebank, as ``mindspore.dataset.PennTreebankDataset``: ``ptb.{usage}.txt``."""

    _files_of: ClassVar[dict[str, str]] = {
        "train": "ptb.train.txt", "test": "ptb.test.txt", "valid": "ptb.valid.txt"}


class WikiTextDataset(_LineCorpus):
    """WikiText-2 or -103, as ``mindspore.dataset.WikiTextDataset``: ``wiki.{usage}.tokens``."""

    _files_of: ClassVar[dict[str, str]] = {
        "train": "wiki.train.tokens", "test": "wiki.test.tokens", "valid": "wiki.valid.tokens"}


class EnWik9Dataset(_Corpus):
    """EnWik9, as ``mindspore.dataset.EnWik9Dataset``: column ``text``, each line of the file
    ``enwik9`` (empty lines too); shuffled by default."""

    _files_of: ClassVar[dict[str, str]] = {"all": "enwik9"}
    _columns_of: ClassVar[list[str]] = ["text"]

    def __init__(self, dataset_dir: str, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | Shuffle | None = True,
                 num_shards: int | None = None, shard_id: int | None = None) -> None:
        super().__init__(dataset_dir, None, num_samples, num_parallel_workers, shuffle,
                         num_shards, shard_id)

    def _parse(self, path: str) -> list[Row]:
        with open(path, "rb") as file:
            return [(np.array(line.rstrip(b"\n")),) for line in file]


class _TaggedCorpus(_Corpus):
    """A corpus of one token per line with its tags (fields split by ``_delimiter``) and a blank
    line after each sentence: a row is a sentence, each column a 1-D string array."""

    _delimiter: ClassVar[bytes | None]

    def _parse(self, path: str) -> list[Row]:
        with open(path, "rb") as file:
            text = file.read().replace(b"\r\n", b"\n")
        width = len(self._columns_of)
        rows = []
        for sentence in text.split(b"\n\n"):
            tokens = [line.strip().split(self._delimiter) for line in sentence.split(b"\n")
                      if line.strip()]
            if not tokens:
                continue
            short = [t for t in tokens if len(t) < width]
            if short:
                raise RuntimeError(f"{type(self).__name__}: {path}: the line {short[0]!r} has "
                                   f"fewer than {width} fields {self._columns_of}")
            rows.append(tuple(np.array([t[k] for t in tokens], dtype=np.bytes_)
                              for k in range(width)))
        return rows


class CoNLL2000Dataset(_TaggedCorpus):
    """CoNLL-2000 chunking, as ``mindspore.dataset.CoNLL2000Dataset``: columns ``word``,
    ``pos_tag``, ``chunk_tag`` (fields split by runs of spaces), from ``train.txt`` and
    ``test.txt``."""

    _files_of: ClassVar[dict[str, str]] = {"train": "train.txt", "test": "test.txt"}
    _columns_of: ClassVar[list[str]] = ["word", "pos_tag", "chunk_tag"]
    _delimiter: ClassVar[bytes | None] = None


class UDPOSDataset(_TaggedCorpus):
    """UDPOS, as ``mindspore.dataset.UDPOSDataset``: columns ``word``, ``universal``,
    ``stanford`` (fields split by tabs), from ``en-ud-tag.v2.{train,dev,test}.txt`` (usage
    'valid' is ``dev``)."""

    _files_of: ClassVar[dict[str, str]] = {
        "train": "en-ud-tag.v2.train.txt", "test": "en-ud-tag.v2.test.txt",
        "valid": "en-ud-tag.v2.dev.txt"}
    _columns_of: ClassVar[list[str]] = ["word", "universal", "stanford"]
    _delimiter: ClassVar[bytes | None] = b"\t"


class IMDBDataset(MappableDataset):
    """IMDb movie reviews, as ``mindspore.dataset.IMDBDataset``: columns ``text`` (a review,
    the last non-empty line of its file) and ``label`` (int32: 1 for ``pos``, 0 for ``neg``),
    from ``{usage}/pos/*`` then ``{usage}/neg/*`` of ``dataset_dir`` (usage 'train', 'test', or
    'all'/None: train then test), each folder's files in sorted order. A source read by index,
    with ``MappableDataset``'s sampling arguments.
    """

    def __init__(self, dataset_dir: str, usage: str | None = None,
                 num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, sampler: Any = None, num_shards: int | None = None,
                 shard_id: int | None = None) -> None:
        where = type(self).__name__
        check_dir(dataset_dir, where)
        usage = check_usage(usage, ("train", "test", "all"), where)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id)
        usages = ["train", "test"] if usage in (None, "all") else [usage]
        self._pairs: list[tuple[str, int]] = []
        for part in usages:
            for label, value in (("pos", 1), ("neg", 0)):
                folder = os.path.join(dataset_dir, part, label)
                if not os.path.isdir(folder):
                    raise RuntimeError(f"Invalid parameter, dataset dir may not exist or is not "
                                       f"a directory: {folder}")
                self._pairs += [(os.path.join(folder, name), value)
                                for name in sorted(os.listdir(folder))]
        if not self._pairs:
            raise RuntimeError(f"Invalid data, IMDBDataset API can't read the data file "
                               f"(interface mismatch or no data found). Check IMDB file path: "
                               f"{dataset_dir}")

    def _columns(self) -> list[str]:
        return ["text", "label"]

    def _length(self) -> int:
        return len(self._pairs)

    def _read(self, index: int) -> Row:
        path, label = self._pairs[index]
        lines = read_lines(path)
        return np.array(lines[-1] if lines else b""), np.array(label, np.int32)
