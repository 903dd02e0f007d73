"""Snippets and highlights cut from the original text around the words searched, and the words of a
keyword: shared by the norm search (`search`) and the spec search, which needs none of the index's
norm reads (so a spec search loads this, not `search`)."""

from __future__ import annotations

from normcli.errors import InvalidArgument
from normcli.fold import fold_with_offsets, words
from normcli.params import KEYWORD
from normcli.store.schema import INFIX_MIN

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    import re

# `re` (with the `enum` it imports, 2–3 ms of a process) is imported by the functions that cut snippets
# and mark words: a keyword's words are found without it, so a search with no hit loads no pattern.

SNIPPET_CHARS = 180


def keyword_tokens(keyword: str) -> list[str]:
    """The folded words of a keyword (at most 16); `invalid_argument` outside the declared length."""
    if not isinstance(keyword, str):
        raise InvalidArgument("the keyword must be text", param="keyword")
    length = len(keyword.strip())
    if not (KEYWORD.low or 0) <= length <= (KEYWORD.high or 0):
        raise InvalidArgument(f"the keyword must have {KEYWORD.low} to {KEYWORD.high} characters, not {length}", param="keyword")
    return words(keyword)[:16]


_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})
_SPELT_OUT = r"(?<=[a-z])(ae|oe|ue)"  # compiled by `re`'s cache at its first use


def spellings(keyword: str, tokens: list[str]) -> dict[str, list[str]]:
    """Other spellings of each token: an umlaut written out (`gefaelle` for `Gefälle`) or a written-out
    umlaut folded (`gefalle` for `Gefaelle`), so that either spelling finds both."""
    import re

    found: dict[str, list[str]] = {}
    for raw in re.findall(r"\w+", keyword):
        plain, spelt = words(raw), words(raw.translate(_UMLAUTS))
        if len(plain) == 1 and len(spelt) == 1 and plain != spelt:
            found.setdefault(plain[0], []).append(spelt[0])
    for token in tokens:
        if len(token) >= 5 and re.search(_SPELT_OUT, token):
            folded = re.sub(_SPELT_OUT, lambda m: m.group(1)[0], token)
            if folded != token:
                found.setdefault(token, []).append(folded)
    return found


# -- snippets and highlights ------------------------------------------------------------------

_SNIPPET_NOISE = (
    (r"!\[([^\]]*)\]\([^)]*\)", r"[\1]"),
    (r"(?<!!)\[([^\]]*)\]\([^)]*\)", r"\1"),
    (r"(?m)^\s*\|?[\s:|-]*-{2,}[\s:|-]*$", " "),
    (r"(?m)\*\*|__|^#+\s+|<!--.*?-->", " "),
)


# What every pattern of `_SNIPPET_NOISE` needs to match at all: a text without any is left as it is,
# without loading `re`.
_NOISE_MARKS = ("](", "--", "**", "__", "#")


def _plain(text: str) -> str:
    if not any(mark in text for mark in _NOISE_MARKS):
        return text
    import re

    for pattern, replacement in _SNIPPET_NOISE:
        text = re.sub(pattern, replacement, text)
    return text


def snippet_for(
    text: str, tokens: list[str], width: int = SNIPPET_CHARS, others: list[str] | None = None
) -> tuple[str, tuple[tuple[int, int], ...]]:
    """A short excerpt of the original text around the best match, with the matched words' spans.

    The excerpt centres on the whole phrase when it occurs, else on the longest word: `de` in
    `charge de neige` is everywhere and says nothing.
    """
    snippet = excerpt_for(text, tokens, width, others)
    if not tokens:
        return snippet, ()
    import re

    longest = sorted({*tokens, *(others or ())}, key=len, reverse=True)
    shown = [token for token in longest if len(token) >= 3] or longest
    return snippet, _marks(snippet, re.compile(r"\b(?:" + "|".join(re.escape(token) for token in shown) + ")"))


def excerpt_for(text: str, tokens: list[str], width: int = SNIPPET_CHARS, others: list[str] | None = None) -> str:
    """`snippet_for`'s excerpt alone, found without a pattern: for answers that carry no highlights
    (a spec search), which then load no `re`. `tokens` and `others` are folded words (`words`)."""
    if not tokens:
        return _excerpt(text, 0, width)
    longest = sorted(set(tokens), key=len, reverse=True)
    # The words themselves first; their other spellings and the compounds that hold them only where
    # the text has none of the words (the compound `Erschliessungsstrasse` says less than `Strasse`).
    rest = sorted(set(others or ()) - set(tokens), key=len, reverse=True)
    # Each sought as a pattern `\bword1\W+word2…` would be: the phrase first, then each word at a word's start.
    phrases = [tuple(tokens)] if len(tokens) > 1 else []
    phrases += [(token,) for token in [*longest, *rest]]
    return _excerpt(text, _first_match(text, phrases), width)


def _is_word_char(char: str) -> bool:
    r"""What `\w` matches."""
    return char.isalnum() or char == "_"


def _find_phrase(folded: str, phrase: tuple[str, ...]) -> int:
    r"""Where `\bword1\W+word2…` first matches in `folded` (the words are folded: `[a-z0-9]+`), else -1."""
    first, length = phrase[0], len(folded)
    position = folded.find(first)
    while position != -1:
        if position == 0 or not _is_word_char(folded[position - 1]):
            end = position + len(first)
            for word in phrase[1:]:
                gap = end
                while gap < length and not _is_word_char(folded[gap]):
                    gap += 1
                if gap == end or not folded.startswith(word, gap):
                    break
                end = gap + len(word)
            else:
                return position
        position = folded.find(first, position + 1)
    return -1


def _first_match(text: str, phrases: list[tuple[str, ...]], chunk: int = 20000) -> int:
    """Where in the original text the first phrase found in the folded text is found first."""
    for phrase in phrases:
        for start in range(0, max(len(text), 1), chunk):
            folded, offsets = fold_with_offsets(text[start : start + chunk + 200])
            found = _find_phrase(folded, phrase)
            if found != -1:
                return start + offsets[found]
    return 0


def _excerpt(text: str, found: int, width: int) -> str:
    begin = max(0, found - width // 3)
    if begin:
        space = text.find(" ", begin, found)
        begin = space + 1 if space != -1 else begin
    excerpt = text[begin : begin + width]
    if begin + width < len(text):
        cut = excerpt.rfind(" ")
        excerpt = excerpt[:cut] if cut > width // 2 else excerpt
    snippet = " ".join(_plain(excerpt).split())  # white space collapsed, as `\s+` → " " then strip
    if begin > 0:
        snippet = "…" + snippet
    if begin + width < len(text):
        snippet += "…"
    return snippet


def highlight_spans(text: str, keyword: str) -> tuple[tuple[int, int], ...]:
    """Where the words of `keyword` occur in `text` (folded), for frontends that re-render a snippet."""
    tokens = [token for token in words(keyword) if len(token) >= 3] or words(keyword)
    if not tokens:
        return ()
    import re

    forms = {*tokens, *(form for variants in spellings(keyword, tokens).values() for form in variants)}
    ordered = sorted(forms, key=len, reverse=True)
    # A long word is marked inside a compound too (`gefalle` in `Längsgefälle`), as search finds it there.
    inside = "|".join(re.escape(form) for form in ordered if len(form) >= INFIX_MIN)
    starts = "|".join(re.escape(form) for form in ordered)
    return _marks(text, re.compile(rf"(?:{inside})|\b(?:{starts})" if inside else rf"\b(?:{starts})"))


def _marks(snippet: str, pattern: re.Pattern[str]) -> tuple[tuple[int, int], ...]:
    folded, offsets = fold_with_offsets(snippet)
    spans = []
    for match in pattern.finditer(folded):
        end = match.end()
        while end < len(folded) and folded[end].isalnum():
            end += 1
        spans.append((offsets[match.start()], offsets[end - 1] + 1))
    return tuple(spans)
