"""Containers: ``SequentialCell`` (cells applied in order) and ``CellList`` (a list of cells).

Children are named by position (``"0"``, ``"1"``, ...; an OrderedDict given to SequentialCell
keeps its names), so parameters are named ``layers.0.weight``. Changing the list renumbers the
children and renames their parameters under the container's own prefix.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator
from typing import Any

from ember.common.tensor import Tensor
from ember.nn.cell import Cell

__all__ = ["CellList", "SequentialCell"]

#: A child and its fixed name, or None for a name that follows its position.
_Entry = tuple[str | None, Cell]


class _CellSequence(Cell):
    """Children in order, each under a fixed name or its position."""

    def __init__(self, auto_prefix: bool = True) -> None:
        super().__init__(auto_prefix)
        self._fixed: set[str] = set()  # names given by the user, kept when others move

    def _check_cell(self, cell: Any) -> Cell:
        if not isinstance(cell, Cell):
            raise TypeError(f"{type(self).__name__}: items must be Cells, but got "
                            f"{type(cell).__name__}")
        return cell

    def _index(self, index: Any) -> int:
        if not isinstance(index, int) or isinstance(index, bool):
            raise TypeError(f"{type(self).__name__}: index must be an int or a slice, but got "
                            f"{type(index).__name__}")
        size = len(self._cells)
        if not -size <= index < size:
            raise IndexError(f"{type(self).__name__}: index {index} is out of range "
                             f"[{-size}, {size})")
        return index % size

    def _entries(self) -> list[_Entry]:
        return [(name if name in self._fixed else None, cell)
                for name, cell in self._cells.items()]

    def _prefix(self) -> str:
        """The prefix of this container's parameter names (``layers.``), read off a child."""
        for name, cell in self._cells.items():
            first = next(cell.parameters_and_names(), None)
            if first is not None:
                suffix = f"{name}.{first[0]}"
                head = first[1].name[:-len(suffix)]
                if first[1].name.endswith(suffix) and (not head or head.endswith(".")):
                    return head
                return ""
        return ""

    def _set_entries(self, entries: list[_Entry]) -> None:
        """Hold exactly ``entries``, named and their parameters renamed."""
        prefix = self._prefix()
        self._cells.clear()
        self._fixed = {fixed for fixed, _ in entries if fixed is not None}
        for i, (fixed, cell) in enumerate(entries):
            name = str(i) if fixed is None else fixed
            self._cells[name] = cell
            if self._auto_prefix:
                cell.update_parameters_name(f"{prefix}{name}.")

    def _view(self, entries: list[_Entry]) -> Any:
        """A container of the same kind over ``entries`` that leaves parameter names alone."""
        view = object.__new__(type(self))
        _CellSequence.__init__(view, auto_prefix=False)
        view._set_entries(entries)
        return view

    def __getitem__(self, index: int | slice | Tensor) -> Any:
        if isinstance(index, slice):
            return self._view(self._entries()[index])
        if isinstance(index, Tensor):  # switch_layer: a Switch node over the cells in a graph
            from ember.graph.control_flow import switch_layer

            return switch_layer(index, list(self._cells.values()))
        return list(self._cells.values())[self._index(index)]

    def __setitem__(self, index: int, cell: Cell) -> None:
        entries = self._entries()
        i = self._index(index)
        entries[i] = (entries[i][0], self._check_cell(cell))
        self._set_entries(entries)

    def __delitem__(self, index: int | slice) -> None:
        entries = self._entries()
        del entries[index if isinstance(index, slice) else self._index(index)]
        self._set_entries(entries)

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[Cell]:
        return iter(list(self._cells.values()))

    def append(self, cell: Cell) -> None:
        """Add ``cell`` at the end."""
        self._set_entries([*self._entries(), (None, self._check_cell(cell))])

    def set_grad(self, requires_grad: bool = True) -> Cell:
        for cell in self._cells.values():
            cell.set_grad(requires_grad)
        return super().set_grad(requires_grad)


class SequentialCell(_CellSequence):
    """Cells applied one after the other: ``SequentialCell([c1, c2])``,
    ``SequentialCell(c1, c2)`` or ``SequentialCell(OrderedDict(name=cell, ...))``."""

    def __init__(self, *args: Any) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            entries: list[_Entry] = [(name, cell) for name, cell in args[0].items()]
            for name in args[0]:
                if not isinstance(name, str) or not name or "." in name:
                    raise KeyError(f"SequentialCell: names must be non-empty strs without '.', "
                                   f"but got {name!r}")
        elif len(args) == 1 and isinstance(args[0], list):
            entries = [(None, cell) for cell in args[0]]
        elif all(isinstance(a, Cell) for a in args):
            entries = [(None, cell) for cell in args]
        else:
            raise TypeError("SequentialCell: takes a list of Cells, an OrderedDict of Cells or "
                            f"Cells, but got {', '.join(type(a).__name__ for a in args)}")
        for _, cell in entries:
            self._check_cell(cell)
        self._set_entries(entries)

    def construct(self, input_data: Any) -> Any:
        for cell in self._cells.values():
            input_data = cell(input_data)
        return input_data


class CellList(_CellSequence):
    """A list of Cells registered as children: ``CellList([c1, c2], auto_prefix=True)``; it
    has list methods (indexing, slicing, len, iteration, append, extend, insert) and no
    ``construct``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        unknown = set(kwargs) - {"auto_prefix"}
        if unknown or len(args) > 1:
            raise TypeError("CellList: takes one list of Cells and the keyword auto_prefix, but "
                            f"got {len(args)} positional arguments and {sorted(kwargs)}")
        super().__init__(kwargs.get("auto_prefix", True))
        if args:
            self.extend(args[0])

    def extend(self, cells: Iterable[Cell]) -> CellList:
        """Add ``cells`` (a list or other iterable of Cells) at the end."""
        if not isinstance(cells, Iterable):
            raise TypeError(f"CellList: extend takes a list of Cells, but got "
                            f"{type(cells).__name__}")
        added = [(None, self._check_cell(cell)) for cell in cells]
        self._set_entries([*self._entries(), *added])
        return self

    def insert(self, index: int, cell: Cell) -> None:
        """Put ``cell`` before position ``index``; the cells after it move up one."""
        entries = self._entries()
        position = len(entries) if index == len(entries) else self._index(index)
        entries.insert(position, (None, self._check_cell(cell)))
        self._set_entries(entries)

    def __iadd__(self, cells: Iterable[Cell]) -> CellList:
        return self.extend(cells)
