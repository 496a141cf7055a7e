"""MindRecord, as ``mindspore.mindrecord``: ``FileWriter`` writes rows to MindRecord shard files
(MindSpore 1.6's on-disk format, with their SQLite ``.db`` indexes) and ``FileReader`` reads
them back, ``MindPage`` by category; ``ember.dataset.MindDataset`` reads them into a pipeline.
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

__all__ = ["FAILED", "SUCCESS", "FileReader", "FileWriter", "MRMAddSchemaError", "MRMCommitError",
           "MRMDefineIndexError", "MRMFetchDataError", "MRMGetMetaError",
           "MRMInvalidSchemaError", "MRMOpenError",
           "MRMOpenForAppendError", "MRMValidateDataError", "MSRStatus", "MindPage",
           "MindRecordException", "ParamTypeError", "ParamValueError"]
