"""Snippets are found without a pattern (a spec search loads no `re`): checked against the patterns
`\\bword1\\W+word2…` and `\\bword` they stand for, on texts with markdown, accents and underscores."""

from __future__ import annotations

import re

import pytest

from normcli.fold import fold_with_offsets, words
from normcli.snippets import excerpt_for, snippet_for

TEXTS = [
    "The snow load on the ground depends on the altitude; snow_load is its field name.",
    "**Schneelast** auf dem Boden: die charge de neige sk.\n\n| a | b |\n|---|---|\n| 1 | 2 |",
    "Créer un droplet — see [the droplets](https://example.invalid/droplets) and ![fig](x.png) <!-- note -->",
    "A Längsgefälle of 2 ‰; a Gefaelle elsewhere. ## Heading\n# Snow  load, combined",
    "predroplet droplets_x x_droplet droplet",
]
KEYWORDS = ["snow load", "droplet", "gefalle", "charge de neige", "load snow", "x droplet"]


def _oracle_start(text: str, tokens: list[str]) -> int:
    """Where the excerpt centres, as the patterns find it: the phrase first, then each word, longest first."""
    patterns = [r"\b" + r"\W+".join(map(re.escape, tokens))] if len(tokens) > 1 else []
    patterns += [r"\b" + re.escape(token) for token in sorted(set(tokens), key=len, reverse=True)]
    folded, offsets = fold_with_offsets(text)
    for pattern in patterns:
        match = re.search(pattern, folded)
        if match:
            return offsets[match.start()]
    return 0


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("keyword", KEYWORDS)
def test_the_excerpt_centres_where_the_patterns_match(text: str, keyword: str) -> None:
    tokens = words(keyword)
    excerpt = excerpt_for(text, tokens, width=30)
    start = _oracle_start(text, tokens)
    # The excerpt starts at most a third of its width before the match, at a word's start, and holds the match.
    shown = " ".join(text[max(0, start - 10) : start + 30].split())
    assert excerpt == snippet_for(text, tokens, width=30)[0]
    if start:
        first_word = text[start:].split()[0].strip("*#[]()!")
        assert first_word[:4] in excerpt, (excerpt, shown)


def test_a_word_inside_another_is_no_match() -> None:
    text = "predroplet and x_droplet come first; the droplet is here"
    excerpt = excerpt_for(text, ["droplet"], width=30)
    assert excerpt.startswith("…") and "the droplet is here" in excerpt
    assert "predroplet" not in excerpt


def test_a_phrase_beats_its_words_and_needs_a_gap() -> None:
    text = "load " * 30 + "snowload " * 10 + "x " * 40 + "snow,  load here"
    excerpt = excerpt_for(text, ["snow", "load"], width=40)
    assert "snow, load here" in excerpt
