"""MindRecord, as ``mindspore.mindrecord``: ``FileWriter`` writes rows to MindRecord shard files
(MindSpore 1.6's on-disk format, with their SQLite ``.db`` indexes) and ``FileReader`` reads
them back, ``MindPage`` by category; ``ember.dataset.MindDataset`` reads them into a pipeline;
the ``*ToMR`` tools convert CIFAR, MNIST, ImageNet folders, CSV and TFRecord files.
``ember.mindrecord.format`` documents the layout."""

from ember.mindrecord.exceptions import (
    MindRecordException,
    MRMAddSchemaError,
    MRMCommitError,
    MRMDefineIndexError,
    MRMFetchDataError,
    MRMGetMetaError,
    MRMInvalidSchemaError,
    MRMOpenError,
    MRMOpenForAppendError,
    MRMValidateDataError,
    ParamTypeError,
    ParamValueError,
)
from ember.mindrecord.filereader import FileReader
from ember.mindrecord.filewriter import FAILED, SUCCESS, FileWriter, MSRStatus
from ember.mindrecord.mindpage import MindPage
from ember.mindrecord.tools import (
    Cifar10ToMR,
    Cifar100ToMR,
    CsvToMR,
    ImageNetToMR,
    MnistToMR,
    TFRecordToMR,
)

__all__ = ["FAILED", "SUCCESS", "Cifar10ToMR", "Cifar100ToMR", "CsvToMR", "FileReader",
           "FileWriter", "ImageNetToMR", "MRMAddSchemaError", "MRMCommitError",
           "MRMDefineIndexError", "MRMFetchDataError", "MRMGetMetaError", "MRMInvalidSchemaError",
           "MRMOpenError", "MRMOpenForAppendError", "MRMValidateDataError", "MSRStatus",
           "MindPage", "MindRecordException", "MnistToMR", "ParamTypeError", "ParamValueError",
           "TFRecordToMR"]
