"""Garbage collection kept out of the reader's way, so that paging costs what one window costs.

Measured on a 1 MB clause (bench/tui.py), one window in ten took 5× the median to paint. Two causes,
both outside the window being painted:

- Textual 8 caches `StylesCache.get_inner_outer` with `functools.lru_cache` on the method, so the cache
  keeps the last 1,024 `StylesCache` objects alive, and with them every line they drew: each window
  paged left about 3,000 objects behind (Textualize/textual issue 6665). `mend_styles_cache` caches the
  same colours without holding the `StylesCache`.
- A window's widgets, lines and their caches are about 15,000 objects in reference cycles. Python's
  full collection walked them together with the ~110,000 long-lived objects of the app (Textual, the
  stylesheet, markdown-it …), taking 100–300 ms in the middle of whichever key came next.
  `Collector` moves what exists once the reader is up into the permanent generation (`gc.freeze`), and
  collects each replaced window's garbage right after the new window is on screen, while the reader
  reads, so a collection only ever walks about one window's objects. Until the first frame with
  content, it does not collect at all: start-up only builds objects that live on.
"""

from __future__ import annotations

import gc
from functools import lru_cache
from typing import Any


def mend_styles_cache() -> None:
    """Make Textual's `StylesCache.get_inner_outer` cache by colours only (it kept whole caches alive)."""
    from textual import _styles_cache

    method: Any = _styles_cache.StylesCache.get_inner_outer
    if not hasattr(method, "cache_info") or getattr(method, "_normcli_mended", False):
        return  # a Textual that no longer caches on the method, or already mended

    plain = method.__wrapped__

    @lru_cache(1024)
    def inner_outer(base_background: Any, background: Any) -> Any:
        return plain(None, base_background, background)  # the method never reads `self`

    def get_inner_outer(self: object, base_background: Any, background: Any) -> Any:
        return inner_outer(base_background, background)

    get_inner_outer._normcli_mended = True  # type: ignore[attr-defined]
    method.cache_clear()
    _styles_cache.StylesCache.get_inner_outer = get_inner_outer  # type: ignore[method-assign,assignment]


class Collector:
    """When the app collects garbage: right after a frame is on screen, never in the middle of a key."""

    def __init__(self) -> None:
        self.frozen = False
        self.collections = 0
        self.paused = False

    def pause(self) -> None:
        """No automatic collection until the first `collect`: start-up builds ~100,000 long-lived objects, and
        collecting while it does (about a tenth of the time to the first clause) finds next to nothing."""
        if gc.isenabled():
            gc.disable()
            self.paused = True

    def collect(self) -> int:
        """Collect now (call it right after a frame is on screen); the first call also freezes what start-up
        built, so that later collections walk only what came after. Returns how many objects were freed."""
        freed = gc.collect()
        if not self.frozen:
            gc.freeze()
            self.frozen = True
        if self.paused:
            gc.enable()
            self.paused = False
        self.collections += 1
        return freed

    def release(self) -> None:
        """The app is closing: hand the frozen objects back to the collector and collect automatically again
        (tests run many apps in one process)."""
        if self.paused:
            gc.enable()
            self.paused = False
        if self.frozen:
            gc.unfreeze()
            self.frozen = False
