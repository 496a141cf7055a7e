"""Datasets, as ``mindspore.dataset``: Python sources and lazy pipelines of NumPy rows.

``import ember.dataset as ds``; ``ds.NumpySlicesDataset(...)`` or ``ds.GeneratorDataset(...)``,
then ``shuffle``, ``map``, ``batch``, ``repeat``, ... and ``create_tuple_iterator()`` or
``create_dict_iterator()`` to read rows as ember Tensors. ``ImageFolderDataset`` reads images
stored one folder per class; ``ember.dataset.vision``, ``.transforms`` and ``.text`` hold the
transforms ``map`` applies.
"""

from ember.dataset import config
from ember.dataset.engine import (
    BatchDataset,
    BatchInfo,
    Dataset,
    DictIterator,
    MapDataset,
    ProjectDataset,
    RenameDataset,
    RepeatDataset,
    ShuffleDataset,
    SkipDataset,
    TakeDataset,
    TupleIterator,
)
from ember.dataset.folder import ImageFolderDataset
from ember.dataset.sources import GeneratorDataset, NumpySlicesDataset

__all__ = [
    "BatchDataset", "BatchInfo", "Dataset", "DictIterator", "GeneratorDataset", "MapDataset",
    "ImageFolderDataset", "NumpySlicesDataset", "ProjectDataset", "RenameDataset",
    "RepeatDataset", "ShuffleDataset", "SkipDataset", "TakeDataset", "TupleIterator", "config",
]
