"""Fixtures of the importer tests: a PDF builder and an empty workspace."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from importer_helpers import PdfBuilder


@pytest.fixture
def pdf_builder() -> Callable[..., PdfBuilder]:
    """Make a `PdfBuilder(outline=…, header=…, first_page_number=…)`."""
    return PdfBuilder


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """An empty workspace (a folder with `norms/`)."""
    root = tmp_path / "ws"
    (root / "norms").mkdir(parents=True)
    return root
