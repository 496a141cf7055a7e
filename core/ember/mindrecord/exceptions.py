"""MindRecord's exceptions under MindSpore's names (``mindspore.mindrecord.common.exceptions``).

Each is also the built-in error its case calls for (ValueError for a bad argument or schema —
MindSpore's ParamValueError also covers arguments of a wrong type —, TypeError for a row of a
wrong type, RuntimeError for files and state), so ``except ValueError`` and
``except MRMInvalidSchemaError`` both catch a bad schema. Messages start with MindSpore's.
"""

from __future__ import annotations


class MindRecordException(Exception):
    """The base of MindRecord's errors; ``str()`` is ``[ClassName]: message``."""

    def __init__(self, error_msg: str) -> None:
        super().__init__(error_msg)
        self.error_msg = error_msg

    def __str__(self) -> str:
        return f"[{type(self).__name__}]: {self.error_msg}"


class ParamValueError(MindRecordException, ValueError):
    """An argument with a value that is not accepted."""

    def __init__(self, error_detail: str) -> None:
        super().__init__(f"Invalid parameter value. {error_detail}")


class ParamTypeError(MindRecordException, TypeError):
    """An argument of a type that is not accepted."""

    def __init__(self, param_name: str, expected_type: str, got: object = None) -> None:
        received = "" if got is None else f", but got {type(got).__name__}"
        super().__init__(f"Invalid parameter type. '{param_name}' expect {expected_type} "
                         f"type{received}.")


class MRMOpenError(MindRecordException, RuntimeError):
    """A MindRecord file that cannot be opened: missing, already there, or damaged."""


class MRMOpenForAppendError(MRMOpenError):
    """A MindRecord file that cannot be opened to append to it."""


class MRMInvalidSchemaError(MindRecordException, ValueError):
    """A schema that MindRecord cannot store."""

    def __init__(self, error_detail: str) -> None:
        super().__init__(f"Schema format is error. Detail: {error_detail}")


class MRMAddSchemaError(MindRecordException, RuntimeError):
    """A schema added when the writer already has one."""


class MRMDefineIndexError(MindRecordException, ValueError):
    """An index field that is not a scalar field of the schema."""

    def __init__(self, error_detail: str) -> None:
        super().__init__(f"Failed to define index field. Detail: {error_detail}")


class MRMValidateDataError(MindRecordException, RuntimeError):
    """Rows written out of order (before ``add_schema``, after ``commit``)."""

    def __init__(self, error_detail: str) -> None:
        super().__init__(f"Raw data do not match the schema. Detail: {error_detail}")


class MRMCommitError(MindRecordException, RuntimeError):
    """A commit that cannot write the header or the index."""


class MRMGetMetaError(MindRecordException, RuntimeError):
    """Meta information (the schema) asked for before it exists."""


class MRMFetchDataError(MindRecordException, RuntimeError):
    """Rows asked for that the files do not hold (a category id or name of MindPage)."""


__all__ = ["MRMAddSchemaError", "MRMCommitError", "MRMDefineIndexError", "MRMFetchDataError",
           "MRMGetMetaError", "MRMInvalidSchemaError", "MRMOpenError", "MRMOpenForAppendError",
           "MRMValidateDataError", "MindRecordException", "ParamTypeError", "ParamValueError"]
