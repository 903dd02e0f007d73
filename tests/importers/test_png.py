"""The PNG rows of a rendered bitmap: the padding of each row and an alpha or padding byte are left out; the
figures' PNGs are compressed in the background without holding up the import while their pixels fit its room."""

from __future__ import annotations

import ctypes
import threading
import time
import zlib
from types import SimpleNamespace

from normcli.importers.png import PngQueue, RawImage


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


class _HeldImage(RawImage):
    """An image whose compression waits for `release`, as a slow one would."""

    release = threading.Event()

    def png(self) -> bytes:
        self.release.wait()
        return super().png()


def test_figures_are_put_without_waiting_while_their_pixels_fit_the_room() -> None:
    _HeldImage.release.clear()
    safety = threading.Timer(5.0, _HeldImage.release.set)  # a queue that waits is slow here, never stuck
    safety.start()
    queue = PngQueue(room=1000)
    started = time.perf_counter()
    for number in range(4):  # none compressed yet: four small figures fit the room
        queue.put(f"fig-{number}.png", _HeldImage(2, 2, 0, bytes([0, number, 9, 0, 9, number])))
    waited = time.perf_counter() - started
    _HeldImage.release.set()
    safety.cancel()
    files = queue.done()
    assert waited < 2.0
    assert list(files) == [f"fig-{number}.png" for number in range(4)]
    assert zlib.decompress(files["fig-3.png"][41:-16]) == bytes([0, 3, 9, 0, 9, 3])
