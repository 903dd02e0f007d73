"""A minimal PNG encoder for rendered pages (no Pillow needed at run time)."""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, kind, data and CRC."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(bitmap) -> bytes:
    """PNG bytes of an RGB(A/X) bitmap: width, height, stride, n_channels and buffer as pypdfium2 gives them."""
    return RawImage.of(bitmap).png()


@dataclass(frozen=True)
class RawImage:
    """A bitmap's pixels copied out as PNG rows (a filter byte before each row), ready to compress: the copy is
    taken while the bitmap lives; the compression, most of the cost, can run in another thread."""

    width: int
    height: int
    color: int  # PNG colour type: 0 grey, 2 RGB
    rows: bytes

    @classmethod
    def of(cls, bitmap) -> RawImage:
        """The rows of a pypdfium2 bitmap (alpha or padding byte dropped)."""
        width, height, stride, channels = bitmap.width, bitmap.height, bitmap.stride, bitmap.n_channels
        buffer = memoryview(bitmap.buffer).cast("B")  # read in place: the bitmap lives while this runs
        kept = width * min(channels, 3)
        if channels != 4:  # each row as it is (its padding left out), a filter byte before it: one join, in C
            each = [buffer[start : start + kept] for start in range(0, stride * height, stride)]
            return cls(width, height, 0 if channels == 1 else 2, b"\x00".join([b"", *each]) if each else b"")
        rows = bytearray((kept + 1) * height)  # zeros: each row's filter byte (0, none) is already there
        for row in range(height):
            start = row * stride
            at = row * (kept + 1) + 1
            rows[at : at + kept] = _drop_alpha(buffer[start : start + width * channels])
        return cls(width, height, 2, bytes(rows))

    def png(self) -> bytes:
        """The PNG file (zlib lets go of the GIL while it compresses, so other threads go on meanwhile)."""
        header = struct.pack(">IIBBBBB", self.width, self.height, 8, self.color, 0, 0, 0)
        return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(self.rows, 6)) + _chunk(b"IEND", b"")


def _drop_alpha(data: bytes | memoryview) -> bytes:
    """RGB bytes of 4-byte pixels (RGBA or RGBX), the fourth byte dropped."""
    out = bytearray(len(data) // 4 * 3)
    out[0::3] = data[0::4]
    out[1::3] = data[1::4]
    out[2::3] = data[2::4]
    return bytes(out)


class PngQueue:
    """Figures compressed in background threads while the caller renders the next ones. The pixels waiting are held
    to `room` bytes (four whole A4 pages at 200 dpi): within it the caller never waits for a compression, which
    otherwise held it up for most of the time the PNGs take (1.5 s of Theora's 23 figures on a busy machine). Two
    threads: the caller waits only at the end, when the cores are its own. `done` gives the PNG files by name."""

    def __init__(self, room: int = 48 << 20, threads: int = 2) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.room = room
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="png")
        self.pending: list = []  # (name, the pixels' size, future) in the order put

    def put(self, name: str, image: RawImage) -> None:
        """Start compressing `image`; wait first while the pixels still waiting would pass `room` with its own
        (an image larger than that waits only for the others)."""
        while True:
            waiting = [(size, future) for _, size, future in self.pending if not future.done()]
            if not waiting or sum(size for size, _ in waiting) + len(image.rows) <= self.room:
                break
            waiting[0][1].result()
        self.pending.append((name, len(image.rows), self.pool.submit(image.png)))

    def done(self) -> dict[str, bytes]:
        """Every PNG file, by the name it was put under; the threads are ended."""
        try:
            return {name: future.result() for name, _, future in self.pending}
        finally:
            self.pool.shutdown(wait=True)
