"""Fixtures for the TUI: apps over a private copy of the sample, bookmarks in a temporary folder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

THEME = "textual-dark"


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Bookmarks go to a temporary folder, never to the user's data folder."""
    folder = tmp_path / "data"
    monkeypatch.setenv("NORMCLI_DATA_DIR", str(folder))
    monkeypatch.delenv("NORMCLI_WORKSPACE", raising=False)
    return folder


@pytest.fixture
def make_app(sample_copy: Path) -> Callable[..., object]:
    """`make_app(code, path, **options)`: the browse app over the sample copy, in the fixed dark theme."""
    from normcli.tui.app import NormcliApp
    from normcli.tui.library import Location

    def build(
        code: str | None = None, path: str = "", edition: str | None = None, language: str | None = None, **options: object
    ) -> NormcliApp:
        start = Location(code, path, edition, language) if code else None
        options.setdefault("theme", THEME)
        options.setdefault("window_chars", 12000)  # the sample's clauses in one window, unless a test is about windows
        return NormcliApp(sample_copy, start, **options)  # type: ignore[arg-type]

    return build


async def _settle(pilot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(3):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


@pytest.fixture
def settle() -> Callable[..., object]:
    """`await settle(pilot)`: wait until every worker is done and the screen has caught up."""
    return _settle


@pytest.fixture
def anyio_backend() -> str:
    """Pilot tests run on asyncio (through anyio's pytest plugin, which ships with anyio)."""
    return "asyncio"
