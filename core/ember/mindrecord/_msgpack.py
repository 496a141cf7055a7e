"""The MessagePack subset MindRecord's raw pages hold (nlohmann::json's ``to_msgpack`` of one
row's scalar fields): maps, arrays, strings, binary, ints, floats, booleans and nil."""

from __future__ import annotations

import struct
from typing import Any

_UNSIGNED = ((0xFF, 0xCC, ">B"), (0xFFFF, 0xCD, ">H"), (0xFFFFFFFF, 0xCE, ">I"),
             (0xFFFFFFFFFFFFFFFF, 0xCF, ">Q"))
_SIGNED = ((-0x80, 0xD0, ">b"), (-0x8000, 0xD1, ">h"), (-0x80000000, 0xD2, ">i"),
           (-0x8000000000000000, 0xD3, ">q"))


def _sized(n: int, fix: int | None, fix_limit: int, codes: dict[str, int]) -> bytes:
    """The head of a string, binary, array or map of ``n`` items: the fixed form below
    ``fix_limit``, else the smallest of ``codes`` (length format -> type byte)."""
    if fix is not None and n < fix_limit:
        return bytes([fix | n])
    for fmt, code in codes.items():
        if n < 1 << (8 * struct.calcsize(fmt)):
            return bytes([code]) + struct.pack(fmt, n)
    raise ValueError(f"msgpack: a length of {n} is too large")


def pack(value: Any) -> bytes:
    """``value`` (a dict of str keys, list, str, bytes, int, float, bool or None) as MessagePack;
    ints take the smallest form, floats float32 when that is exact, as nlohmann::json."""
    if value is None:
        return b"\xc0"
    if isinstance(value, bool):
        return b"\xc3" if value else b"\xc2"
    if isinstance(value, int):
        if 0 <= value < 0x80 or -32 <= value < 0:
            return struct.pack(">b" if value < 0 else ">B", value)
        table = _UNSIGNED if value >= 0 else _SIGNED
        for bound, code, fmt in table:
            if (value <= bound) if value >= 0 else (value >= bound):
                return bytes([code]) + struct.pack(fmt, value)
        raise ValueError(f"msgpack: the int {value} does not fit 64 bits")
    if isinstance(value, float):
        single = struct.pack(">f", value) if abs(value) < 3.4e38 or value != value else None
        if single is not None and struct.unpack(">f", single)[0] == value:
            return b"\xca" + single
        return b"\xcb" + struct.pack(">d", value)
    if isinstance(value, str):
        data = value.encode("utf-8")
        return _sized(len(data), 0xA0, 32, {">B": 0xD9, ">H": 0xDA, ">I": 0xDB}) + data
    if isinstance(value, bytes | bytearray):
        return _sized(len(value), None, 0, {">B": 0xC4, ">H": 0xC5, ">I": 0xC6}) + bytes(value)
    if isinstance(value, list | tuple):
        head = _sized(len(value), 0x90, 16, {">H": 0xDC, ">I": 0xDD})
        return head + b"".join(pack(v) for v in value)
    if isinstance(value, dict):
        head = _sized(len(value), 0x80, 16, {">H": 0xDE, ">I": 0xDF})
        return head + b"".join(pack(k) + pack(v) for k, v in sorted(value.items()))
    raise TypeError(f"msgpack: cannot pack a {type(value).__name__}")


_FIXED = {0xCA: ">f", 0xCB: ">d", 0xCC: ">B", 0xCD: ">H", 0xCE: ">I", 0xCF: ">Q",
          0xD0: ">b", 0xD1: ">h", 0xD2: ">i", 0xD3: ">q"}
_LENGTH = {0xC4: ">B", 0xC5: ">H", 0xC6: ">I", 0xD9: ">B", 0xDA: ">H", 0xDB: ">I",
           0xDC: ">H", 0xDD: ">I", 0xDE: ">H", 0xDF: ">I"}


def unpack(data: bytes) -> Any:
    """The value of one MessagePack document that fills ``data``."""
    value, end = _unpack(data, 0)
    if end != len(data):
        raise ValueError(f"msgpack: {len(data) - end} bytes follow the value")
    return value


def _unpack(data: bytes, at: int) -> tuple[Any, int]:
    code = data[at]
    at += 1
    if code < 0x80 or code >= 0xE0:
        return code - 256 if code >= 0xE0 else code, at
    if code in _FIXED:
        fmt = _FIXED[code]
        return struct.unpack_from(fmt, data, at)[0], at + struct.calcsize(fmt)
    if 0x80 <= code < 0xA0:
        kind, n = ("map" if code < 0x90 else "array"), code & 0x0F
    elif 0xA0 <= code < 0xC0:
        kind, n = "str", code & 0x1F
    elif code in _LENGTH:
        fmt = _LENGTH[code]
        n = struct.unpack_from(fmt, data, at)[0]
        at += struct.calcsize(fmt)
        kind = ("bin" if code < 0xC7 else "str" if code < 0xDC else
                "array" if code < 0xDE else "map")
    elif code in (0xC0, 0xC2, 0xC3):
        return {0xC0: None, 0xC2: False, 0xC3: True}[code], at
    else:
        raise ValueError(f"msgpack: unsupported type byte 0x{code:02x}")
    if kind in ("str", "bin"):
        if at + n > len(data):
            raise ValueError("msgpack: a string runs past the end of the data")
        chunk = data[at:at + n]
        return (chunk.decode("utf-8") if kind == "str" else bytes(chunk)), at + n
    items = []
    for _ in range(n * (2 if kind == "map" else 1)):
        item, at = _unpack(data, at)
        items.append(item)
    if kind == "map":
        return dict(zip(items[::2], items[1::2])), at
    return items, at
