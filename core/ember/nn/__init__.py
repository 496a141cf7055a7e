"""Neural-network cells, as ``mindspore.nn``."""

from ember.nn.cell import Cell

__all__ = ["Cell"]
