"""Datasets, as ``mindspore.dataset``: Python sources and lazy pipelines of NumPy rows.

``import ember.dataset as ds``; ``ds.NumpySlicesDataset(...)`` or ``ds.GeneratorDataset(...)``,
then ``shuffle``, ``map``, ``batch``, ``repeat``, ... and ``create_tuple_iterator()`` or
``create_dict_iterator()`` to read rows as ember Tensors. ``ImageFolderDataset`` reads images
stored one folder per class, ``MindDataset`` MindRecord files (``ember.mindrecord``),
``TFRecordDataset`` TFRecord files of ``tf.train.Example`` (typed by a ``Schema``);
``ember.dataset.vision``, ``.audio``, ``.transforms`` and ``.text`` hold the
transforms ``map`` applies.
"""

from ember.dataset import config
from ember.dataset.batching import BatchDataset, BatchInfo, BucketBatchByLengthDataset
from ember.dataset.engine import (
    ConcatDataset,
    Dataset,
    DictIterator,
    FilterDataset,
    MapDataset,
    ProjectDataset,
    RenameDataset,
    RepeatDataset,
    ShuffleDataset,
    SkipDataset,
    TakeDataset,
    TupleIterator,
    ZipDataset,
)
from ember.dataset.engine import zip_datasets as zip  # noqa: A004 (MindSpore's name)
from ember.dataset.filerows import Shuffle
from ember.dataset.folder import ImageFolderDataset
from ember.dataset.image_sets import CelebADataset, CocoDataset, ManifestDataset, VOCDataset
from ember.dataset.mindrecord import MindDataset
from ember.dataset.mnist_variants import (
    EMnistDataset,
    FashionMnistDataset,
    KMnistDataset,
    QMnistDataset,
)
from ember.dataset.readers import Cifar10Dataset, Cifar100Dataset, CSVDataset, MnistDataset
from ember.dataset.samplers import (
    DistributedSampler,
    PKSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    SubsetSampler,
    WeightedRandomSampler,
)
from ember.dataset.schema import Schema
from ember.dataset.sources import GeneratorDataset, MappableDataset, NumpySlicesDataset
from ember.dataset.textcorpora import (
    AGNewsDataset,
    AmazonReviewDataset,
    CoNLL2000Dataset,
    DBpediaDataset,
    EnWik9Dataset,
    IMDBDataset,
    PennTreebankDataset,
    SogouNewsDataset,
    UDPOSDataset,
    WikiTextDataset,
    YahooAnswersDataset,
    YelpReviewDataset,
)
from ember.dataset.textfiles import CLUEDataset, TextFileDataset
from ember.dataset.tfrecord import TFRecordDataset

__all__ = [
    "BatchDataset", "BatchInfo", "Dataset", "DictIterator", "GeneratorDataset", "MapDataset",
    "NumpySlicesDataset", "ProjectDataset", "RenameDataset", "RepeatDataset", "ShuffleDataset",
    "SkipDataset", "TakeDataset", "TupleIterator", "config",
    "CSVDataset", "Cifar100Dataset", "Cifar10Dataset", "DistributedSampler", "ImageFolderDataset",
    "MappableDataset", "MindDataset",
    "MnistDataset", "PKSampler", "RandomSampler", "Sampler", "SequentialSampler", "Shuffle",
    "SubsetRandomSampler", "SubsetSampler", "WeightedRandomSampler",
    "BucketBatchByLengthDataset", "ConcatDataset", "FilterDataset", "ZipDataset", "zip",
    "Schema", "TFRecordDataset",
    # ms-dimgsrc
    "CelebADataset", "CocoDataset", "EMnistDataset", "FashionMnistDataset", "KMnistDataset",
    "ManifestDataset", "QMnistDataset", "VOCDataset",
    # text readers
    "CLUEDataset", "TextFileDataset", "AGNewsDataset", "AmazonReviewDataset", "CoNLL2000Dataset",
    "DBpediaDataset", "EnWik9Dataset", "IMDBDataset", "PennTreebankDataset", "SogouNewsDataset",
    "UDPOSDataset", "WikiTextDataset", "YahooAnswersDataset", "YelpReviewDataset",
]
