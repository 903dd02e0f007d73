"""Search: the FTS5 query plan (the words side by side, then each word, then as prefixes) and clause
numbers as keywords; the snippets and highlights cut from the original text are `snippets`'."""

from __future__ import annotations

import re

from normcli import results as r
from normcli.catalogue import Catalogue, Version
from normcli.fold import path_key
from normcli.labels import clause_number
from normcli.resolve import exact_keys, part_reference
from normcli.snippets import keyword_tokens, snippet_for, spellings
from normcli.store.queries import Index
from normcli.store.schema import INFIX_MIN

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    import sqlite3

__all__ = ["Words", "keyword_tokens", "keyword_words", "search_corpus", "search_norm", "spellings"]

INFIX_TERMS = 24  # at most this many compounds stand in for one searched word


class Words:
    """The folded words of a keyword with what else each may be written as in the index: German
    umlauts spelt out or folded (`Gefälle` = `Gefaelle`), and, for long words, the indexed words
    that hold them (`Gefälle` in `Längsgefälle`)."""

    def __init__(self, tokens: list[str], spellings: dict[str, list[str]], inside: dict[str, list[str]]) -> None:
        self.tokens = tokens
        self.spellings = spellings
        self.inside = inside

    @property
    def all(self) -> list[str]:
        """Every word a snippet may show: the tokens, their spellings and the compounds that hold them."""
        return [*self.tokens, *(w for t in self.tokens for w in [*self.spellings.get(t, ()), *self.inside.get(t, ())])]


def keyword_words(index: Index, keyword: str, tokens: list[str]) -> Words:
    """`tokens` with their other spellings and, for words of INFIX_MIN letters or more, the indexed
    words that hold them."""
    other = spellings(keyword, tokens)
    inside: dict[str, list[str]] = {}
    for token in tokens:
        for form in [token, *other.get(token, ())]:
            if len(form) >= INFIX_MIN:
                inside.setdefault(token, []).extend(index.words_containing(form, INFIX_TERMS))
    return Words(tokens, other, inside)


def search_norm(index: Index, versions: list[Version], keyword: str, found: Words, limit: int) -> tuple[r.Hit, ...]:
    """The hits of the language versions of one edition for `keyword`, the first version first within
    each kind: clauses named by the keyword, then title hits, then text hits, each best first."""
    per_version = [_search_version(index, version, keyword, found, limit) for version in versions]
    merged: dict[str, r.Hit] = {}  # a clause is the same clause in every language: shown once
    for kind in ("path", "title", "text"):
        lists = [[hit for hit in hits if hit.kind == kind] for hits in per_version]
        for rank in range(max(map(len, lists), default=0)):
            for hits in lists:
                if rank < len(hits):
                    merged.setdefault(hits[rank].path, hits[rank])
    return tuple(merged.values())[:limit]


def _search_version(index: Index, version: Version, keyword: str, found: Words, limit: int) -> list[r.Hit]:
    """The hits of one language version: a clause named by its number and the clauses that cite it;
    else the clause holding a table or figure named by its label (`tableau 3`), then title hits,
    then text hits."""
    tokens = found.tokens
    languages = {version.bundle_id: version.language}
    named = clause_number(keyword)
    clauses = index.nodes_in_bundles(exact_keys(named), [version.bundle_id]) if named else []
    if clauses:
        # As in `corpus`: the clause itself, then the clauses whose references lead to it.
        hits = [path_hit(node, version.language) for node in clauses]
        shown = {node["id"] for node in clauses}
        keys = sorted({node["path_key"] for node in clauses})
        mentions = [node for node in index.mentions(keys, [version.bundle_id], limit) if node not in shown]
        hits += [hit for hit, _ in make_hits(index, found, mentions, "text", languages)]
        return hits[:limit]
    if not tokens:
        return []
    holder = _part_holder(index, version, keyword)
    # Words, and numbers the norm has no clause for (`2020`, `SIA 260`).
    id_range = index.id_range(version.bundle_id)
    title_ids = [node for node in phrase_first(index, found, limit, id_range, titles=True) if node != holder]
    text_ids = [node for node in phrase_first(index, found, limit + len(title_ids), id_range) if node not in title_ids and node != holder]
    first = [hit for hit, _ in make_hits(index, found, [holder], "path", languages)] if holder is not None else []
    ranked = make_hits(index, found, title_ids, "title", languages) + make_hits(index, found, text_ids, "text", languages)
    return (first + [hit for hit, _ in ranked])[:limit]


def _part_holder(index: Index, version: Version, keyword: str) -> int | None:
    """The row id of the clause holding the table or figure that `keyword` names (`tableau 3`, `fig-2`)."""
    part = part_reference(keyword)
    if part is None:
        return None
    kind, wanted = part
    rows = index.tables(version.bundle_id) if kind == "table" else index.figures(version.bundle_id)
    id_field = "table_id" if kind == "table" else "fig_id"
    prefix = "tab-" if kind == "table" else "fig-"
    key = path_key(wanted)
    number = re.sub(r"^(?:tab|table|fig|figure)-", "", key)
    row = next(
        (row for row in rows if path_key(row[id_field]) in (key, prefix + number) or (row["number"] and path_key(row["number"]) == number)),
        None,
    )
    if row is None:
        return None
    nodes = index.nodes_by_keys(version.bundle_id, [path_key(row["node_path"])])
    node = nodes.get(path_key(row["node_path"]))
    return node["id"] if node is not None else None


def search_corpus(
    index: Index, catalogue: Catalogue, keyword: str, found: Words, limit: int, edition: str | None = None
) -> tuple[r.CorpusNorm, ...]:
    """Every norm's default edition (or the editions `edition` names: `all`, a year) at once for
    `keyword` (folded into `tokens`): clause numbers, then titles, then text; grouped by norm edition."""
    tokens = found.tokens
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
        for hit, bundle_id in make_hits(index, found, fresh, kind, languages):
            head = owner[bundle_id][0]
            grouped.setdefault((head["code_key"], head["edition"]), []).append(hit)

    preferred = {catalogue.preferred(rows)["id"]: rows for rows in defaults.values()}
    named = clause_number(keyword)
    clauses = index.nodes_in_bundles(exact_keys(named), sorted(preferred)) if named else []
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
            for query in fts_queries(found):
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


def make_hits(index: Index, found: Words, ids: list[int], kind: str, languages: dict[int, str]) -> list[tuple[r.Hit, int]]:
    """Hits (with their bundle id) for clause ids in rank order, snippets cut from the original text."""
    rows = index.nodes_by_ids(ids)
    texts = index.texts(ids)
    out = []
    for node in ids:
        row = rows[node]
        snippet, marks = snippet_for(texts.get(node) or row["title"], found.tokens, others=found.all)
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


def fts_query(found: Words, prefixes: bool = True, inside: bool = False) -> str:
    """An FTS5 query from folded words: every word required, in any of its spellings; with
    `prefixes`, words of four letters or more also match as the start of longer ones (`Schnee`
    finds `Schneelast`); with `inside`, also the indexed words that hold them (`Längsgefälle`)."""
    parts = []
    for token in found.tokens:
        forms = [token, *found.spellings.get(token, ())]
        terms = [f'"{form}"*' if prefixes and len(form) >= 4 else f'"{form}"' for form in forms]
        if inside:
            terms += [f'"{word}"' for word in found.inside.get(token, ())]
        parts.append(terms[0] if len(terms) == 1 else "(" + " OR ".join(terms) + ")")
    return " AND ".join(parts)  # FTS5 wants AND spelt out after a bracketed group


def fts_queries(found: Words) -> list[str]:
    """The queries of one search kind, best first: the words side by side, the words themselves,
    then the words as prefixes, then inside longer words. Each later one runs only when the
    earlier ones left room: an exact common word is cheap to rank, its prefix expansion is not."""
    tokens = found.tokens
    queries = [fts_phrase(tokens)] if len(tokens) > 1 else []
    queries.append(fts_query(found, prefixes=False))
    if any(len(token) >= 4 for token in tokens):
        queries.append(fts_query(found))
    if any(found.inside.get(token) for token in tokens):
        queries.append(fts_query(found, inside=True))
    return queries


def fts_phrase(tokens: list[str]) -> str:
    """An FTS5 phrase: the words next to each other (`charge de neige`, or `4 2 1` for clause 4.2.1)."""
    return '"' + " ".join(tokens) + '"'


def phrase_first(index: Index, found: Words, limit: int, id_range: tuple[int, int], titles: bool = False) -> list[int]:
    """Clause ids in the order of `fts_queries`: side by side, then the words, then their prefixes.

    Inside one norm FTS5 finds the words fast but a phrase slowly (it does not skip to the norm's
    rows): the words are asked first, and where they are not all there, the phrase is not asked.
    """
    queries = fts_queries(found)
    known: dict[str, list[int]] = {}
    if len(found.tokens) > 1:
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
