"""Text transforms, as ``mindspore.dataset.text``: ``Vocab`` and ``Lookup``, tokenizers
(whitespace, Unicode characters, regular expressions, BERT's basic and WordPiece, a Python
function), string normalization, n-grams, ``SlidingWindow``, ``TruncateSequencePair``,
``ToNumber``, and pre-trained vectors (``Vectors``, ``FastText``, ``GloVe``, ``CharNGram``)
with ``ToVectors``."""

from ember.dataset.text import transforms, utils
from ember.dataset.text.transforms import (
    BasicTokenizer,
    BertTokenizer,
    CaseFold,
    Lookup,
    Ngram,
    NormalizeUTF8,
    PythonTokenizer,
    RegexReplace,
    RegexTokenizer,
    SlidingWindow,
    ToNumber,
    ToVectors,
    TruncateSequencePair,
    UnicodeCharTokenizer,
    WhitespaceTokenizer,
    WordpieceTokenizer,
)
from ember.dataset.text.utils import NormalizeForm, Vocab, to_bytes, to_str
from ember.dataset.text.vectors import CharNGram, FastText, GloVe, Vectors

__all__ = ["BasicTokenizer", "BertTokenizer", "CaseFold", "Lookup", "Ngram", "NormalizeForm",
           "NormalizeUTF8", "PythonTokenizer", "RegexReplace", "RegexTokenizer", "SlidingWindow",
           "ToNumber", "TruncateSequencePair", "UnicodeCharTokenizer", "Vocab",
           "WhitespaceTokenizer", "WordpieceTokenizer", "to_bytes", "to_str", "transforms", "utils",
           "CharNGram", "FastText", "GloVe", "ToVectors", "Vectors"]
