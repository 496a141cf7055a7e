"""Text transforms, as ``mindspore.dataset.text``: ``Vocab`` and ``Lookup``, tokenizers
(whitespace, Unicode characters), ``SlidingWindow`` and ``ToNumber``."""

from ember.dataset.text import transforms, utils
from ember.dataset.text.transforms import (
    Lookup,
    SlidingWindow,
    ToNumber,
    UnicodeCharTokenizer,
    WhitespaceTokenizer,
)
from ember.dataset.text.utils import Vocab

__all__ = ["Lookup", "SlidingWindow", "ToNumber", "UnicodeCharTokenizer", "Vocab",
           "WhitespaceTokenizer", "transforms", "utils"]
