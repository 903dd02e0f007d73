"""A minimal PNG encoder for rendered pages (no Pillow needed at run time)."""

from __future__ import annotations

import struct
import zlib


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(bitmap) -> bytes:
    """PNG bytes of an RGB(A/X) bitmap: width, height, stride, n_channels and buffer as pypdfium2 gives them."""
    width, height, stride, channels = bitmap.width, bitmap.height, bitmap.stride, bitmap.n_channels
    buffer = bytes(bitmap.buffer)
    color = 0 if channels == 1 else 2
    rows = bytearray()
    for row in range(height):
        start = row * stride
        data = buffer[start : start + width * channels]
        if channels == 4:
            data = _drop_alpha(data)
        rows.append(0)
        rows.extend(data)
    header = struct.pack(">IIBBBBB", width, height, 8, color, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(bytes(rows), 6)) + _chunk(b"IEND", b"")


def _drop_alpha(data: bytes) -> bytes:
    out = bytearray(len(data) // 4 * 3)
    out[0::3] = data[0::4]
    out[1::3] = data[1::4]
    out[2::3] = data[2::4]
    return bytes(out)
