"""How `api search` orders its hits: the keyword's words as a phrase first, then all of them anywhere,
then as prefixes. Expected orders come from the sample's spec file read as plain YAML."""

from __future__ import annotations

import re
from pathlib import Path

from tests.specs.conftest import plain_load

SAMPLE_METEO = Path(__file__).resolve().parents[2] / "sample_workspace" / "specs" / "meteo" / "openapi.yaml"


def _words(text: str) -> str:
    """Lowercase words joined by single spaces (`/snow-load/{siteId}` → `snow load siteid`)."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def test_the_keyword_as_a_phrase_ranks_before_its_words_scattered(service) -> None:
    document = plain_load(SAMPLE_METEO)
    assert isinstance(document, dict)
    phrase, scattered = set(), set()
    for section in ("paths", "webhooks"):
        for path, item in (document.get(section) or {}).items():
            for verb, operation in item.items():
                if not isinstance(operation, dict) or "responses" not in operation:
                    continue
                head = f" {_words(path)} {_words(operation.get('summary', ''))} "
                everything = head + _words(str(operation.get("description", ""))) + " " + _words(operation.get("operationId", ""))
                if " snow load " in head:
                    phrase.add((verb.upper(), path))
                elif "snow" in everything.split() and "load" in everything.split():
                    scattered.add((verb.upper(), path))
    assert phrase and scattered, "the sample has both kinds, else this test says nothing"

    hits = service.search_specs("snow load", limit=20).hits
    order = [(hit.method, hit.path) for hit in hits]
    assert set(order[: len(phrase)]) == phrase
    assert scattered <= set(order[len(phrase) :])
