"""Search: the FTS5 query plan (the words side by side, then each word, then as prefixes), clause
numbers as keywords, and the snippets and highlights cut from the original text."""

from __future__ import annotations

import re
import sqlite3

from normcli import results as r
from normcli.catalogue import Catalogue, Version
from normcli.errors import InvalidArgument
from normcli.fold import fold_with_offsets, words
from normcli.operations import KEYWORD
from normcli.resolve import exact_keys
from normcli.store.queries import Index

SNIPPET_CHARS = 180
# The patterns only searches use are left to `re`'s cache, compiled at their first use: compiled
# here, they would cost every call's start-up 2 ms.
_CLAUSE_KEYWORD = r"^\s*(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)*|(?i:(?:annexe?|anhang|allegato|appendix)\s+[a-z]))\s*$"


def keyword_tokens(keyword: str) -> list[str]:
    """The folded words of a keyword (at most 16); `invalid_argument` outside the declared length."""
    if not isinstance(keyword, str):
        raise InvalidArgument("the keyword must be text")
    length = len(keyword.strip())
    if not (KEYWORD.low or 0) <= length <= (KEYWORD.high or 0):
        raise InvalidArgument(f"the keyword must have {KEYWORD.low} to {KEYWORD.high} characters, not {length}")
    return words(keyword)[:16]


def is_clause_keyword(keyword: str) -> bool:
    """Whether a keyword names a clause by its number (`4.2.1`, `A.1`, `Annexe A`)."""
    return re.match(_CLAUSE_KEYWORD, keyword) is not None


def search_norm(index: Index, version: Version, keyword: str, tokens: list[str], limit: int) -> tuple[r.Hit, ...]:
    """The hits of one version for `keyword` (folded into `tokens`): a clause named by its number and
    the clauses that cite it, else title hits then text hits, each best first."""
    languages = {version.bundle_id: version.language}
    clauses = index.nodes_in_bundles(exact_keys(keyword), [version.bundle_id]) if is_clause_keyword(keyword) else []
    if clauses:
        # As in `corpus`: the clause itself, then the clauses whose references lead to it.
        hits = [path_hit(node, version.language) for node in clauses]
        shown = {node["id"] for node in clauses}
        keys = sorted({node["path_key"] for node in clauses})
        mentions = [node for node in index.mentions(keys, [version.bundle_id], limit) if node not in shown]
        hits += [hit for hit, _ in make_hits(index, tokens, mentions, "text", languages)]
        return tuple(hits[:limit])
    if not tokens:
        return ()
    # Words, and numbers the norm has no clause for (`2020`, `SIA 260`).
    id_range = index.id_range(version.bundle_id)
    title_ids = phrase_first(index, tokens, limit, id_range, titles=True)
    text_ids = [node for node in phrase_first(index, tokens, limit + len(title_ids), id_range) if node not in title_ids]
    found = make_hits(index, tokens, title_ids, "title", languages) + make_hits(index, tokens, text_ids, "text", languages)
    return tuple(hit for hit, _ in found[:limit])


def search_corpus(
    index: Index, catalogue: Catalogue, keyword: str, tokens: list[str], limit: int, edition: str | None = None
) -> tuple[r.CorpusNorm, ...]:
    """Every norm's default edition (or the editions `edition` names: `all`, a year) at once for
    `keyword` (folded into `tokens`): clause numbers, then titles, then text; grouped by norm edition."""
    defaults = catalogue.search_versions(edition)
    languages = {row["id"]: row["language"] for rows in defaults.values() for row in rows}
    owner = {row["id"]: rows for rows in defaults.values() for row in rows}
    grouped: dict[tuple[str, str], list[r.Hit]] = {}
    seen: set[tuple[str, str, str]] = set()

    def room() -> int:
        return limit - len(seen)

    def take(ids: list[int], kind: str) -> None:
        """Add hits for the first clauses of default editions not shown yet; snippets are cut only for those kept."""
        rows = index.nodes_by_ids(ids)
        fresh: list[int] = []
        space = room()
        for node in ids:
            if rows[node]["bundle_id"] not in owner:
                continue
            head = owner[rows[node]["bundle_id"]][0]
            key = (head["code_key"], head["edition"], rows[node]["path"])
            if key not in seen and len(fresh) < space:
                seen.add(key)
                fresh.append(node)
        for hit, bundle_id in make_hits(index, tokens, fresh, kind, languages):
            head = owner[bundle_id][0]
            grouped.setdefault((head["code_key"], head["edition"]), []).append(hit)

    preferred = {catalogue.preferred(rows)["id"]: rows for rows in defaults.values()}
    clauses = index.nodes_in_bundles(exact_keys(keyword), sorted(preferred)) if is_clause_keyword(keyword) else []
    if clauses:
        for node in clauses:
            bundle = catalogue.preferred(preferred[node["bundle_id"]])
            shown = (bundle["code_key"], bundle["edition"], node["path"])
            if room() > 0 and shown not in seen:
                seen.add(shown)
                grouped.setdefault((bundle["code_key"], bundle["edition"]), []).append(path_hit(node, bundle["language"]))
        if tokens and room() > 0:
            # Mentions come from the stored references, not from a phrase query: the digits of
            # "4.2.1" are in every other clause, so the phrase would intersect huge posting lists.
            keys = sorted({node["path_key"] for node in clauses})
            take(index.mentions(keys, sorted(languages), limit + len(seen)), "text")
    elif tokens:  # words, and numbers no norm has a clause for (`1990`, `SIA 260`)
        # Titles first, then text; within each, the words side by side first. Each query runs
        # only while there is room: a common word fills the page with title hits alone. Hits
        # that are not shown (an older edition, a clause already shown in another language or
        # as a title hit) leave room, so the query is asked again for more while it has them.
        for kind, titles in (("title", True), ("text", False)):
            for query in fts_queries(tokens):
                ask = max(2 * (limit + len(seen)), 20)
                while room() > 0:
                    # A text query is ranked on a sample when it matches very many clauses; titles never are.
                    ids = index.match(query, ask, titles=True) if titles else index.match_sampled(query, ask)
                    take(ids, kind)
                    if len(ids) < ask:
                        break
                    ask *= 4
    norms = []
    for (key, edition_name), hits in grouped.items():
        head = catalogue.preferred(defaults[(key, edition_name)])
        norms.append(r.CorpusNorm(head["code"], edition_name, head["title"], tuple(hits)))
    return tuple(norms)


def make_hits(index: Index, tokens: list[str], ids: list[int], kind: str, languages: dict[int, str]) -> list[tuple[r.Hit, int]]:
    """Hits (with their bundle id) for clause ids in rank order, snippets cut from the original text."""
    rows = index.nodes_by_ids(ids)
    texts = index.texts(ids)
    out = []
    for node in ids:
        row = rows[node]
        snippet, marks = snippet_for(texts.get(node) or row["title"], tokens)
        out.append(
            (
                r.Hit(row["path"], row["title"], snippet, kind, languages.get(row["bundle_id"], ""), row["page_start"], marks),
                row["bundle_id"],
            )
        )
    return out


def path_hit(node: sqlite3.Row, language: str) -> r.Hit:
    """The hit for a clause named by its number: its summary stands for the snippet."""
    return r.Hit(node["path"], node["title"], node["summary"], "path", language, node["page_start"])


def fts_query(tokens: list[str], prefixes: bool = True) -> str:
    """An FTS5 query from folded words: every word required; with `prefixes`, words of four
    letters or more also match as the start of longer ones (`Schnee` finds `Schneelast`)."""
    return " ".join(f'"{token}"*' if prefixes and len(token) >= 4 else f'"{token}"' for token in tokens)


def fts_queries(tokens: list[str]) -> list[str]:
    """The queries of one search kind, best first: the words side by side, the words themselves,
    then the words as prefixes. Each later one runs only when the earlier ones left room: an
    exact common word is cheap to rank, its prefix expansion is not."""
    queries = [fts_phrase(tokens)] if len(tokens) > 1 else []
    queries.append(fts_query(tokens, prefixes=False))
    if any(len(token) >= 4 for token in tokens):
        queries.append(fts_query(tokens))
    return queries


def fts_phrase(tokens: list[str]) -> str:
    """An FTS5 phrase: the words next to each other (`charge de neige`, or `4 2 1` for clause 4.2.1)."""
    return '"' + " ".join(tokens) + '"'


def phrase_first(index: Index, tokens: list[str], limit: int, id_range: tuple[int, int], titles: bool = False) -> list[int]:
    """Clause ids in the order of `fts_queries`: side by side, then the words, then their prefixes.

    Inside one norm FTS5 finds the words fast but a phrase slowly (it does not skip to the norm's
    rows): the words are asked first, and where they are not all there, the phrase is not asked.
    """
    queries = fts_queries(tokens)
    known: dict[str, list[int]] = {}
    if len(tokens) > 1:
        phrase, each_word = queries[0], queries[1]
        known[each_word] = index.match(each_word, limit, id_range, titles)
        if not known[each_word]:
            known[phrase] = []
    ids: list[int] = []
    for query in queries:
        if len(ids) >= limit:
            break
        matched = known[query] if query in known else index.match(query, limit, id_range, titles)
        ids += [node for node in matched if node not in ids]
    return ids[:limit]


# -- snippets and highlights ------------------------------------------------------------------

_SNIPPET_NOISE = (
    (r"!\[([^\]]*)\]\([^)]*\)", r"[\1]"),
    (r"(?<!!)\[([^\]]*)\]\([^)]*\)", r"\1"),
    (r"(?m)^\s*\|?[\s:|-]*-{2,}[\s:|-]*$", " "),
    (r"(?m)\*\*|__|^#+\s+|<!--.*?-->", " "),
)


def _plain(text: str) -> str:
    for pattern, replacement in _SNIPPET_NOISE:
        text = re.sub(pattern, replacement, text)
    return text


def snippet_for(text: str, tokens: list[str], width: int = SNIPPET_CHARS) -> tuple[str, tuple[tuple[int, int], ...]]:
    """A short excerpt of the original text around the best match, with the matched words' spans.

    The excerpt centres on the whole phrase when it occurs, else on the longest word: `de` in
    `charge de neige` is everywhere and says nothing.
    """
    if not tokens:
        return _excerpt(text, 0, width), ()
    longest = sorted(set(tokens), key=len, reverse=True)
    patterns = [re.compile(r"\b" + r"\W+".join(re.escape(token) for token in tokens))] if len(tokens) > 1 else []
    patterns += [re.compile(r"\b" + re.escape(token)) for token in longest]
    found = _first_match(text, patterns)
    snippet = _excerpt(text, found, width)
    shown = [token for token in longest if len(token) >= 3] or longest
    return snippet, _marks(snippet, re.compile(r"\b(?:" + "|".join(re.escape(token) for token in shown) + ")"))


def _first_match(text: str, patterns: list[re.Pattern[str]], chunk: int = 20000) -> int:
    """Where in the original text the first pattern that matches the folded text matches first."""
    for pattern in patterns:
        for start in range(0, max(len(text), 1), chunk):
            folded, offsets = fold_with_offsets(text[start : start + chunk + 200])
            match = pattern.search(folded)
            if match:
                return start + offsets[match.start()]
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
    snippet = re.sub(r"\s+", " ", _plain(excerpt)).strip()
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
    return _marks(text, re.compile(r"\b(?:" + "|".join(re.escape(token) for token in sorted(set(tokens), key=len, reverse=True)) + ")"))


def _marks(snippet: str, pattern: re.Pattern[str]) -> tuple[tuple[int, int], ...]:
    folded, offsets = fold_with_offsets(snippet)
    spans = []
    for match in pattern.finditer(folded):
        end = match.end()
        while end < len(folded) and folded[end].isalnum():
            end += 1
        spans.append((offsets[match.start()], offsets[end - 1] + 1))
    return tuple(spans)
