"""Paging a long clause leaves nothing behind: the old windows' objects are freed, not kept by a cache."""

from __future__ import annotations

import gc
import weakref

import pytest
from textual._styles_cache import StylesCache
from textual.color import Color
from textual.widgets import Static

from normcli.tui.app import NormcliApp
from normcli.tui.library import Location
from normcli.tui.memory import Collector, mend_styles_cache
from tests.tui.test_large import long_norm

pytestmark = pytest.mark.anyio


def test_the_mended_styles_cache_keeps_no_styles_cache_alive() -> None:
    mend_styles_cache()
    mend_styles_cache()  # twice is harmless
    cache = StylesCache()
    gone = weakref.ref(cache)
    inner, outer = cache.get_inner_outer(Color(10, 20, 30), Color(0, 0, 0, 0.5))
    assert (outer.background, inner.background) == (Color(10, 20, 30), Color(5, 10, 15))  # half black over the base
    del cache
    gc.collect()
    assert gone() is None


def test_the_collector_freezes_once_and_gives_back_on_release() -> None:
    collector = Collector()
    try:
        collector.pause()
        assert not gc.isenabled()
        collector.collect()
        assert gc.isenabled(), "the first collection ends the pause of start-up"
        frozen = gc.get_freeze_count()
        assert frozen > 0 and collector.frozen
        collector.collect()
        assert gc.get_freeze_count() >= frozen
    finally:
        collector.release()
    assert gc.get_freeze_count() == 0 and not collector.frozen and gc.isenabled()


async def test_paging_a_long_clause_does_not_grow_the_heap(tmp_path, make_bundle, settle) -> None:
    """The objects alive after 3 windows and after all of them are about the same: each window's are freed."""
    long_norm(tmp_path, make_bundle)
    app = NormcliApp(tmp_path, Location("BIG 1", "1"), theme="textual-dark", window_chars=3000)

    def caches() -> int:
        gc.collect()
        return sum(1 for item in gc.get_objects() if isinstance(item, StylesCache))

    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        counts: list[int] = []
        status = ""
        while not status.endswith("· end"):
            await pilot.press("pagedown")
            await settle(pilot)
            status = str(app.screen.query_one("#section-status", Static).render())
            if len(app.paint_times) in (4, 16):
                counts.append(caches())
        assert gc.isenabled() and len(app.paint_times) > 16 and app.collector.collections >= 16
        assert counts[1] <= counts[0] + 20, counts  # unmended: ~25 more caches per window, kept for good
    assert gc.get_freeze_count() == 0 and gc.isenabled()
