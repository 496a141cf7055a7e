"""Summaries, as ``mindspore.train.summary``: ``SummaryRecord`` writes event files."""

from ember.train.summary._summary_adapter import crc32c  # noqa: F401
from ember.train.summary.summary_record import SummaryRecord

__all__ = ["SummaryRecord"]
