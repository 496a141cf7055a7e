"""Summary values as TensorBoard event records.

An event file is a sequence of records (TFRecord framing: length, masked CRC-32C of the length,
the bytes, their masked CRC-32C), each an ``Event`` protocol buffer: the first names the file
version, the others hold a step, its wall time and a ``Summary`` of tagged values. A value is
one of TensorBoard's kinds, keyed here by SummaryRecord's plugin name: 'scalar'
(``simple_value``), 'image' (a PNG ``Summary.Image``), 'histogram' (a ``HistogramProto``) and
'tensor' (a ``TensorProto``). Messages are encoded by hand: the core needs no protobuf.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable

import numpy as np

from ember.common.tensor import Tensor


def _crc32c_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return table


_CRC_TABLE = _crc32c_table()


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli), as TFRecord frames use it."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _CRC_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def _masked_crc(data: bytes) -> bytes:
    crc = crc32c(data)
    return struct.pack("<I", (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF)


def record(data: bytes) -> bytes:
    """``data`` framed as one TFRecord."""
    length = struct.pack("<Q", len(data))
    return length + _masked_crc(length) + data + _masked_crc(data)


# --- protobuf wire format -----------------------------------------------------------------

def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    """A length-delimited field (message, string, bytes, packed numbers)."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _int(number: int, value: int) -> bytes:
    return _varint(number << 3) + _varint(int(value) & (2**64 - 1))


def _double(number: int, value: float) -> bytes:
    return _varint(number << 3 | 1) + struct.pack("<d", value)


def _float(number: int, value: float) -> bytes:
    return _varint(number << 3 | 5) + struct.pack("<f", value)


def event(wall_time: float, step: int, *, file_version: str | None = None,
          values: list[bytes] = ()) -> bytes:
    """An ``Event``: wall_time = 1, step = 2, file_version = 3, summary = 5 (``Summary``:
    value = 1, repeated); ``values`` are encoded ``Summary.Value`` messages."""
    body = _double(1, wall_time) + _int(2, step)
    if file_version is not None:
        body += _field(3, file_version.encode())
    if values:
        body += _field(5, b"".join(_field(1, v) for v in values))
    return body


# --- values: checks (when a value is added) and encoders (when it is written) ---------------

def checked_array(plugin: str, name: str, value: object) -> np.ndarray:
    """The host copy of ``value`` for ``plugin``, or TypeError/ValueError saying why not."""
    if not isinstance(value, Tensor):
        raise TypeError(f"SummaryRecord.add_value: expect the value of '{name}' to be Tensor, "
                        f"but got {type(value).__name__}")
    array = np.array(value.asnumpy())
    if array.dtype.kind not in "biuf":
        raise TypeError(f"SummaryRecord.add_value: the {plugin} '{name}' must hold numbers, "
                        f"but got dtype {array.dtype}")
    if plugin == "scalar" and array.size != 1:
        raise ValueError(f"SummaryRecord.add_value: the scalar '{name}' holds "
                         f"{array.size} values (shape {list(array.shape)}), but the scalar "
                         "plugin expects one value")
    if plugin == "image" and (array.ndim != 4 or array.shape[1] not in (1, 3)
                              or 0 in array.shape):
        raise ValueError(f"SummaryRecord.add_value: the image '{name}' must be a non-empty "
                         f"NCHW tensor with 1 or 3 channels, but got shape {list(array.shape)}")
    if plugin in ("tensor", "histogram") and array.ndim == 0:
        raise ValueError(f"SummaryRecord.add_value: the {plugin} '{name}' must have rank 1 or "
                         "more, but got a scalar")
    return array


def _scalar_value(tag: str, array: np.ndarray) -> bytes:
    """``Summary.Value``: tag = 1, simple_value = 2."""
    return _field(1, tag.encode()) + _float(2, float(array.reshape(-1)[0]))


def _calc_histogram_bins(count: int) -> int:
    """How many buckets a histogram of ``count`` finite values gets: 2 for up to 5, 3 for up
    to 10, then about 10 values a bucket, at most 90 (MindSpore's rule)."""
    if not count:
        return 1
    if count <= 5:
        return 2
    if count <= 10:
        return 3
    return min(count // 10 + 1, 90)


def _histogram_value(tag: str, array: np.ndarray) -> bytes:
    """``Summary.Value``: tag = 1, histo = 5 (``HistogramProto``: min = 1, max = 2, num = 3,
    sum = 4, sum_squares = 5, bucket_limit = 6 and bucket = 7, packed doubles). The buckets
    split [min, max] evenly; bucket i counts the values up to bucket_limit[i]. NaN and
    infinities, for which TensorBoard's histogram has no field, are left out."""
    values = array.astype(np.float64).reshape(-1)
    values = values[np.isfinite(values)]
    body = b""
    if values.size:
        low, high = float(values.min()), float(values.max())
        first, last = (low, high) if low < high else (low - 0.5, high + 0.5)
        counts, edges = np.histogram(values, bins=np.linspace(
            first, last, _calc_histogram_bins(values.size) + 1))
        body = (_double(1, low) + _double(2, high) + _double(3, values.size)
                + _double(4, float(values.sum())) + _double(5, float(np.dot(values, values)))
                + _field(6, edges[1:].astype("<f8").tobytes())
                + _field(7, counts.astype("<f8").tobytes()))
    return _field(1, tag.encode()) + _field(5, body)


# TensorFlow's DataType numbers, by NumPy dtype.
_TF_DTYPES = {np.dtype(k): v for k, v in (
    ("float32", 1), ("float64", 2), ("int32", 3), ("uint8", 4), ("int16", 5), ("int8", 6),
    ("int64", 9), ("bool", 10), ("uint16", 17), ("float16", 19), ("uint32", 22),
    ("uint64", 23))}


def _tensor_value(tag: str, array: np.ndarray) -> bytes:
    """``Summary.Value``: tag = 1, tensor = 8 (``TensorProto``: dtype = 1, tensor_shape = 2
    (``TensorShapeProto``: dim = 2, each size = 1), tensor_content = 4, little-endian)."""
    dtype = _TF_DTYPES.get(array.dtype)
    if dtype is None:
        raise TypeError(f"SummaryRecord: the tensor '{tag}' has dtype {array.dtype}, which an "
                        f"event file cannot hold; supported: {sorted(map(str, _TF_DTYPES))}")
    shape = b"".join(_field(2, _int(1, d)) for d in array.shape)
    content = np.ascontiguousarray(array, array.dtype.newbyteorder("<")).tobytes()
    proto = _int(1, dtype) + _field(2, shape) + _field(4, content)
    return _field(1, tag.encode()) + _field(8, proto)


def image_canvas(array: np.ndarray, columns: int = 8) -> np.ndarray:
    """An NCHW batch (C = 1 or 3) as one HWC uint8 RGB picture, the images in rows of
    ``columns``. uint8 values are kept, values all in [0, 1] are scaled by 255, others are
    taken as 0-255 (clipped)."""
    if array.shape[1] == 1:
        array = np.repeat(array, 3, axis=1)
    if array.dtype != np.uint8:
        scale = 255.0 if array.min() >= 0 and array.max() <= 1 else 1.0
        array = np.clip(array.astype(np.float64) * scale, 0, 255).astype(np.uint8)
    n, _, h, w = array.shape
    cols = min(n, columns)
    rows = -(-n // cols)
    canvas = np.zeros((rows * h, cols * w, 3), np.uint8)
    for i, image in enumerate(array):
        y, x = divmod(i, cols)
        canvas[y * h:(y + 1) * h, x * w:(x + 1) * w] = image.transpose(1, 2, 0)
    return canvas


def png(rgb: np.ndarray) -> bytes:
    """An HWC uint8 RGB picture as a PNG file (8-bit truecolour, no filtering)."""
    h, w, _ = rgb.shape

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    rows = np.concatenate([np.zeros((h, 1), np.uint8), rgb.reshape(h, w * 3)], axis=1)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows.tobytes())) + chunk(b"IEND", b""))


def _image_value(tag: str, array: np.ndarray) -> bytes:
    """``Summary.Value``: tag = 1, image = 4 (``Summary.Image``: height = 1, width = 2,
    colorspace = 3, encoded_image_string = 4)."""
    canvas = image_canvas(array)
    h, w, c = canvas.shape
    image = _int(1, h) + _int(2, w) + _int(3, c) + _field(4, png(canvas))
    return _field(1, tag.encode()) + _field(4, image)


#: The encoder of each plugin's values: ``(tag, array) -> Summary.Value`` bytes.
VALUE_ENCODERS: dict[str, Callable[[str, np.ndarray], bytes]] = {
    "scalar": _scalar_value, "image": _image_value, "histogram": _histogram_value,
    "tensor": _tensor_value}
