"""The PNG rows of a rendered bitmap: the padding of each row and an alpha or padding byte are left out."""

from __future__ import annotations

import ctypes
import zlib
from types import SimpleNamespace

from normcli.importers.png import RawImage


def _bitmap(width: int, height: int, channels: int, stride: int) -> SimpleNamespace:
    data = bytes((7 * k + 3) % 251 for k in range(stride * height))
    return SimpleNamespace(
        width=width, height=height, stride=stride, n_channels=channels, buffer=(ctypes.c_ubyte * len(data)).from_buffer_copy(data)
    )


def _rows_one_by_one(bitmap: SimpleNamespace) -> bytes:
    data = bytes(bitmap.buffer)
    rows = b""
    for row in range(bitmap.height):
        pixels = data[row * bitmap.stride : row * bitmap.stride + bitmap.width * bitmap.n_channels]
        if bitmap.n_channels == 4:
            pixels = b"".join(pixels[k : k + 3] for k in range(0, len(pixels), 4))
        rows += b"\x00" + pixels
    return rows


def test_the_rows_are_the_pixels_of_each_row_after_a_filter_byte() -> None:
    for width, height, channels, stride in ((5, 4, 3, 16), (5, 4, 3, 15), (7, 3, 1, 8), (4, 3, 4, 16), (6, 2, 4, 28), (3, 0, 3, 9)):
        bitmap = _bitmap(width, height, channels, stride)
        image = RawImage.of(bitmap)
        assert image.rows == _rows_one_by_one(bitmap), (width, height, channels, stride)
        assert (image.width, image.height, image.color) == (width, height, 0 if channels == 1 else 2)
        if height:
            assert zlib.decompress(image.png()[33 + 8 : -16]) == image.rows
