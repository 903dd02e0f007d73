"""`api search`: the order of its hits (the keyword's words as a phrase first, then all of them anywhere,
then as prefixes), and how a person sees them. Expected values come from the sample's spec file read as
plain YAML."""

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


def test_a_person_reads_each_hit_whole_in_an_80_column_terminal(cli, sample_copy: Path) -> None:
    document = plain_load(SAMPLE_METEO)
    assert isinstance(document, dict)
    summaries = {
        f"{verb.upper()} {path}": operation["summary"]
        for path, item in document["paths"].items()
        for verb, operation in item.items()
        if isinstance(operation, dict) and "snow load" in _words(f"{path} {operation.get('summary', '')}")
    }
    assert summaries
    ran = cli("api", "search", "snow load", workspace=sample_copy, env={"COLUMNS": "80"})
    assert ran.code == 0
    lines = [line.strip() for line in ran.stdout.splitlines()]
    for endpoint, summary in summaries.items():
        head = next(k for k, line in enumerate(lines) if line.split(". ", 1)[-1].startswith(endpoint + " "))
        assert lines[head + 1] == summary, "the summary on one line of its own, under its method and path"
        assert re.fullmatch(r"[0-9a-f]{32}", lines[head + 2]), "then the id to pass to `api endpoint`"


def test_a_tag_s_endpoints_show_each_path_whole_in_a_narrow_terminal(cli, sample_copy: Path) -> None:
    document = plain_load(SAMPLE_METEO)
    assert isinstance(document, dict)
    tag = document["tags"][0]["name"]
    expected = [
        f"{verb.upper()} {path}"
        for section in ("paths", "webhooks")
        for path, item in (document.get(section) or {}).items()
        for verb, operation in item.items()
        if isinstance(operation, dict) and tag in operation.get("tags", [])
    ]
    assert expected
    tags = cli("api", "tags", "meteo", "--json", workspace=sample_copy).json()["tags"]
    tag_id = next(entry["id"] for entry in tags if entry["title"] == tag)
    ran = cli("api", "endpoints", tag_id, workspace=sample_copy, env={"COLUMNS": "40"})
    assert ran.code == 0
    shown = [line.strip().split(". ", 1)[-1] for line in ran.stdout.splitlines() if re.match(r"\s*\d+\. ", line)]
    assert sorted(shown) == sorted(expected), "every method and path on one line, never folded inside a cell"
