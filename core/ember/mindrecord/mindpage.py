"""``MindPage``: rows of MindRecord files by category, as ``mindspore.mindrecord.MindPage``."""

from __future__ import annotations

import json
from typing import Any

from ember.mindrecord.exceptions import MRMFetchDataError, ParamTypeError, ParamValueError
from ember.mindrecord.filereader import Shards, check_consumers
from ember.mindrecord.filewriter import SUCCESS, MSRStatus


class MindPage:
    """Reads the rows of MindRecord files grouped by the values of one index field.

    The candidate fields are the files' index fields; after ``category_field`` is set, category
    ``k`` is the ``k``-th distinct value of that field in string order (MindSpore's), and
    ``read_at_page_by_id``/``read_at_page_by_name`` return page ``page`` of ``num_row`` rows of
    one category, in file order.
    """

    def __init__(self, file_name: str | list[str], num_consumer: int = 4) -> None:
        check_consumers(num_consumer)
        self._shards = Shards(file_name, where="MindPage")
        self._field: str | None = None
        self._groups: dict[str, list[int]] = {}

    @property
    def candidate_fields(self) -> list[str]:
        """The fields that can be categories: the index fields of the files."""
        return list(self._shards.index_fields)

    def get_category_fields(self) -> list[str]:
        """The fields that can be categories."""
        return self.candidate_fields

    @property
    def category_field(self) -> str | None:
        """The field whose values are the categories."""
        return self._field

    @category_field.setter
    def category_field(self, field: str) -> None:
        self.set_category_field(field)

    def set_category_field(self, category_field: str) -> MSRStatus:
        """Group the rows by ``category_field``, one of ``candidate_fields``."""
        if not isinstance(category_field, str):
            raise ParamTypeError("category_field", "str", category_field)
        if category_field not in self.candidate_fields:
            raise ParamValueError(f"category_field {category_field!r} is not an index field of "
                                  f"the files; candidates are {self.candidate_fields}")
        groups: dict[str, list[int]] = {}
        for row, value in enumerate(self._shards.index_values(category_field)):
            groups.setdefault(str(value), []).append(row)
        self._field, self._groups = category_field, dict(sorted(groups.items()))
        return SUCCESS

    def read_category_info(self) -> str:
        """The categories as JSON: ``{"categories": [{"count", "id", "name"}, ...]}``."""
        self._require_field()
        categories = [{"count": len(rows), "id": k, "name": name}
                      for k, (name, rows) in enumerate(self._groups.items())]
        return json.dumps({"categories": categories})

    def read_at_page_by_id(self, category_id: int, page: int, num_row: int) -> list[dict]:
        """Rows ``page * num_row ...`` of category ``category_id``."""
        self._require_field()
        if not isinstance(category_id, int) or isinstance(category_id, bool):
            raise ParamValueError(f"category_id must be an int, but got {category_id!r}")
        if not 0 <= category_id < len(self._groups):
            raise MRMFetchDataError(f"Invalid data, category_id: {category_id} must be in the "
                                    f"range [0, {len(self._groups)}].")
        return self._page(list(self._groups.values())[category_id], page, num_row)

    def read_at_page_by_name(self, category_name: str, page: int, num_row: int) -> list[dict]:
        """Rows ``page * num_row ...`` of the category named ``category_name``."""
        self._require_field()
        if not isinstance(category_name, str):
            raise ParamValueError(f"category_name must be a str, but got {category_name!r}")
        if category_name not in self._groups:
            raise MRMFetchDataError(f"category_name: {category_name} could not found: it is not "
                                    f"a value of {self._field!r}.")
        return self._page(self._groups[category_name], page, num_row)

    def _page(self, rows: list[int], page: Any, num_row: Any) -> list[dict]:
        for name, value, low in (("page", page, 0), ("num_row", num_row, 1)):
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise ParamValueError(f"{name} must be an int >= {low}, but got {value!r}")
        return [self._shards.row(i) for i in rows[page * num_row:(page + 1) * num_row]]

    def _require_field(self) -> None:
        if self._field is None:
            raise ParamValueError("set category_field (one of candidate_fields) first")
