"""``BleuScore``: the BLEU of candidate translations against reference translations."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from ember.nn.metrics.metric import Metric


def _ngrams(tokens: list[str], n_gram: int) -> Counter:
    return Counter(tuple(tokens[i:i + n]) for n in range(1, n_gram + 1)
                   for i in range(len(tokens) - n + 1))


class BleuScore(Metric):
    """BLEU with up to ``n_gram``-grams (geometric mean of clipped n-gram precisions times the
    brevity penalty); ``smooth`` adds one to every count."""

    def __init__(self, n_gram: int = 4, smooth: bool = False) -> None:
        super().__init__()
        if isinstance(n_gram, bool) or not isinstance(n_gram, int) or not 1 <= n_gram <= 4:
            raise ValueError(f"BleuScore: n_gram must be an int in [1, 4], but got {n_gram!r}")
        self.n_gram, self.smooth = n_gram, bool(smooth)
        self.clear()

    def clear(self) -> None:
        self._numerator = np.zeros(self.n_gram)
        self._denominator = np.zeros(self.n_gram)
        self._precision_scores = np.zeros(self.n_gram)
        self._c = 0.0
        self._r = 0.0
        self._trans_len = 0
        self._ref_len = 0
        self._is_update = False

    def update(self, *inputs: Any) -> None:
        """Accumulate ``(candidate_corpus, reference_corpus)``: a list of token lists and, per
        candidate, a list of reference token lists."""
        if len(inputs) != 2:
            raise ValueError(f"BleuScore.update: needs 2 inputs (candidate_corpus, "
                             f"reference_corpus), but got {len(inputs)}")
        candidates, references = inputs
        if len(candidates) != len(references):
            raise ValueError(f"BleuScore.update: {len(candidates)} candidates but "
                             f"{len(references)} reference lists")
        for candidate, refs in zip(candidates, references):
            self._c += len(candidate)
            self._r += min((len(r) for r in refs), key=lambda n: (abs(n - len(candidate)), n))
            counts = _ngrams(candidate, self.n_gram)
            best: Counter = Counter()
            for ref in refs:
                best |= _ngrams(ref, self.n_gram)
            for gram, count in (counts & best).items():
                self._numerator[len(gram) - 1] += count
            for gram, count in counts.items():
                self._denominator[len(gram) - 1] += count
        self._is_update = True

    def eval(self) -> float:
        if not self._is_update:
            raise self._no_samples()
        if self._numerator.min() == 0.0 and not self.smooth:
            return 0.0
        if self.smooth:
            precision = (self._numerator + 1) / (self._denominator + 1)
        else:
            precision = self._numerator / self._denominator
        score = np.exp(np.log(precision).mean())
        penalty = 1.0 if self._c > self._r else np.exp(1 - self._r / self._c)
        return float(score * penalty)
