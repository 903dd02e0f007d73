"""The operations that no norm reader offers, over one workspace: what changed between two editions
(`diff` / `compare_editions`), who cites a clause (`xrefs --incoming`), where a term is defined
(`define` / `define_term`) and a reference to a clause for a report (`cite`).

Each reads the index and the catalogue (the choice of edition and language) that the `Service` hands
it, as `search` and `resolve` do, and answers a record of `normcli.results`; every frontend renders
those. The `Service` methods of the same operations call them, after checking the declared ranges,
inside one snapshot of the index.
"""

from __future__ import annotations

import re

from normcli import definitions as terms
from normcli import render
from normcli.catalogue import Version, newest_first, split_code
from normcli.cite import FORMATS, Reference, format_reference
from normcli.diff import Clause, align
from normcli.errors import InvalidArgument, NotFound
from normcli.fold import code_key
from normcli.resolve import find_node
from normcli.results import CiteResult, ComparedEdition, DefineResult, DiffResult, FoundDefinition, IncomingRef, XrefsResult

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3

    from normcli.catalogue import Catalogue
    from normcli.store.queries import Index

TERM_CHARS = (1, 200)


# -- helpers -----------------------------------------------------------------------------------


def _bundle_rows(catalogue: Catalogue) -> dict[int, sqlite3.Row]:
    """The readable bundles by id, from the service's catalogue (kept while the index is unchanged)."""
    return {row["id"]: row for editions in catalogue.by_code.values() for rows in editions.values() for row in rows}


def cite_row(bundle: sqlite3.Row, path: str, page_start: int | None) -> str:
    """The bracket citation of a clause of a bundle: `[SIA 261:2020, 4.2.1, p. 17]` (no page for a
    document without printed pages: its clauses have none in the index)."""
    return render.citation(bundle["code"], bundle["edition"], path, page_start, bool(bundle["published"]))


# -- diff ----------------------------------------------------------------------------------------


def previous_edition(catalogue: Catalogue, code: str, edition: str) -> str | None:
    """The edition of `code` just older than `edition` (by year, then name), or None: what `d` compares with."""
    editions = catalogue.editions_of(split_code(code, None)[0])
    order = newest_first(editions)
    wanted = code_key(edition)
    names = [name for name in order if code_key(name) == wanted]
    if not names:
        return None
    position = order.index(names[0])
    return order[position + 1] if position + 1 < len(order) else None


def compare_editions(
    index: Index,
    catalogue: Catalogue,
    before: str,
    after: str,
    path: str | None = None,
    language: str | None = None,
    from_language: str | None = None,
    to_language: str | None = None,
    force: bool = False,
) -> DiffResult:
    """`diff` / `compare_editions`: what was added, removed, renumbered and changed from `before` to `after`.

    Two different norms are refused unless `force`; two language versions are aligned by path and
    compared by their values only, and the answer says so."""
    old = catalogue.version(before, None, from_language or language)
    new = catalogue.version(after, None, to_language or language)
    notes: list[str] = []
    if code_key(old.code) != code_key(new.code):
        if not force:
            raise InvalidArgument(
                f"{old.code} and {new.code} are different norms; diff compares two editions of one norm",
                "ask again with force (--force) to compare them anyway",
                param="toEdition",
            )
        notes.append(f"{old.code} and {new.code} are different norms, compared as asked")
    if old.bundle_id == new.bundle_id:
        notes.append(f"{old.label} is compared with itself: nothing changed")
    same_language = old.language == new.language
    if not same_language:
        notes.append(
            f"the editions are in different languages ({old.language} → {new.language}): clauses are aligned by path, "
            "and only their numbers, formulas and numeric table cells are compared"
        )
    old_clauses, new_clauses, shown = _clauses(index, old, path), _clauses(index, new, path), None
    if path is not None:
        if old_clauses is None and new_clauses is None:
            raise NotFound("path", path.strip(), norm=f"{old.label} nor in {new.label}")
        shown = path.strip()
    changes = align(old_clauses or [], new_clauses or [], same_language)
    rows = _bundle_rows(catalogue)

    def side(version: Version) -> ComparedEdition:
        return ComparedEdition(version.code, version.edition, version.language, version.title, not rows[version.bundle_id]["published"])

    return DiffResult(side(old), side(new), shown, same_language, tuple(changes), tuple(notes))


def _clauses(index: Index, version: Version, path: str | None) -> list[Clause] | None:
    """The clauses of an edition in reading order (below `path` when given; None when it has no such clause)."""
    if path is None:
        rows = index.outline(version.bundle_id)
    else:
        try:
            root, requested = find_node(index, version, path)
        except NotFound:
            return None
        if requested is not None:  # only the heading above exists: this edition has no such clause
            return None
        rows = index.descendants(version.bundle_id, root, None)
    texts = index.texts([row["id"] for row in rows])
    return [Clause(row["path"], row["title"], texts.get(row["id"], "")) for row in rows]


# -- incoming references ---------------------------------------------------------------------------


def incoming(
    index: Index, catalogue: Catalogue, code: str, path: str, edition: str | None = None, language: str | None = None
) -> XrefsResult:
    """`xrefs --incoming`: every clause, in this norm and the others, that refers to `path`.

    A reference inside the norm names its own edition; read in the same language version. A reference
    from another norm names no edition and so leads to the default one: it is listed when the clause
    asked about is in that edition, from the default edition of the citing norm, in its preferred language.
    """
    version = catalogue.version(code, edition, language)
    node, requested = find_node(index, version, path)
    rows = _bundle_rows(catalogue)
    own_key = code_key(version.code)
    default_ids = {catalogue.preferred(bundles)["id"] for bundles in catalogue.default_versions().values()}
    target_is_default = any(
        row["id"] == version.bundle_id or (code_key(row["code"]) == own_key and row["edition"] == version.edition)
        for row in rows.values()
        if row["id"] in default_ids
    )
    found = index.incoming(own_key, [node["path_key"]], node["path_key"] if node["child_count"] == 0 else None)
    refs: list[IncomingRef] = []
    seen: set[tuple[int, str]] = set()
    for row in found:
        bundle = rows.get(row["bundle_id"])
        if bundle is None or (row["bundle_id"] == version.bundle_id and row["path"] == node["path"]):
            continue  # a hidden or unreadable bundle, or the clause naming itself
        internal = row["target_code"] is None or code_key(row["target_code"]) == code_key(bundle["code"])
        if internal:
            if row["bundle_id"] != version.bundle_id:
                continue
        elif not (target_is_default and row["bundle_id"] in default_ids):
            continue
        if (row["bundle_id"], row["path"]) in seen:
            continue  # two mentions in one clause are one entry
        seen.add((row["bundle_id"], row["path"]))
        refs.append(
            IncomingRef(
                bundle["code"],
                bundle["edition"],
                bundle["language"],
                row["path"],
                row["title"],
                row["text"],
                cite_row(bundle, row["path"], row["page_start"]),
            )
        )
    # This norm's own clauses first, then the other norms by code.
    refs.sort(key=lambda ref: (code_key(ref.source_code) != own_key, code_key(ref.source_code)))
    return XrefsResult(version.describe(), node["path"], requested, tuple(refs), "incoming")


# -- definitions -------------------------------------------------------------------------------------

_MATCH = ("exact", "inflected", "mention")


def define(index: Index, catalogue: Catalogue, term: str, limit: int = 20, language: str | None = None) -> DefineResult:
    """`define` / `define_term`: where a term or symbol is defined, in every norm, edition and language:
    exact term first, then inflected forms, then definitions that mention it; newest editions first."""
    if not isinstance(term, str) or not TERM_CHARS[0] <= len(term.strip()) <= TERM_CHARS[1]:
        raise InvalidArgument(
            f"the term must have {TERM_CHARS[0]} to {TERM_CHARS[1]} characters", 'for example: normcli define "charge utile"', param="term"
        )
    wanted = term.strip()
    key = terms.term_key(wanted)
    notes: list[str] = []
    if not key:
        raise InvalidArgument(
            f"'{wanted}' holds no letter or digit to look up",
            'for example: normcli define "charge utile" or normcli define s_k',
            param="term",
        )
    short = len(key.replace("_", "")) < 2
    if short:
        notes.append(
            f"'{wanted}' is one character: only a term or symbol that is exactly '{wanted}' is looked up, not the texts that mention it"
        )
    stems = [] if short else [terms.stem_key(wanted)]
    pattern = None if short or len(key) < 3 else "%" + "%".join(terms.stem_key(wanted).split()) + "%"
    rows = _bundle_rows(catalogue)
    default_ids = {row["id"] for bundles in catalogue.default_versions().values() for row in bundles}
    scored = []
    for row in index.definitions([key], stems, pattern, 2000):
        bundle = rows.get(row["bundle_id"])
        if bundle is None or (language and bundle["language"] != language.strip().lower()):
            continue
        level = terms.rank(wanted, row["term"], row["definition"])
        if level is None:
            continue
        exact_case = row["kind"] == "symbol" and terms.symbol_key(row["term"]) == terms.symbol_key(wanted)
        order = (
            level,
            not exact_case,
            row["bundle_id"] not in default_ids,
            code_key(bundle["code"]),
            -(bundle["year"] or 0),
            bundle["language"],
            row["node_row"],
        )
        scored.append((order, level, row, bundle))
    scored.sort(key=lambda item: item[0])
    found = tuple(
        FoundDefinition(
            bundle["code"],
            bundle["edition"],
            bundle["language"],
            row["path"],
            row["title"],
            row["term"],
            row["kind"],
            _MATCH[level],
            row["definition"],
            cite_row(bundle, row["path"], row["page_start"]),
        )
        for _, level, row, bundle in scored[:limit]
    )
    if not found:
        notes.append(f"no definition of '{wanted}' in this workspace; `normcli corpus \"{wanted}\"` finds where it is used")
    return DefineResult(wanted, found, tuple(notes))


# -- citations --------------------------------------------------------------------------------------


def cite(
    index: Index, catalogue: Catalogue, code: str, path: str, style: str = "text", edition: str | None = None, language: str | None = None
) -> CiteResult:
    """`cite`: a reference to one clause as text, BibTeX, CSL-JSON or RIS."""
    if style not in FORMATS:
        raise InvalidArgument(f"format must be one of {', '.join(FORMATS)}, not {style!r}", param="format")
    version = catalogue.version(code, edition, language)
    node, _ = find_node(index, version, path)
    bundle = _bundle_rows(catalogue)[version.bundle_id]
    reference = Reference(
        version.code,
        version.edition,
        version.title,
        node["path"],
        node["title"],
        node["page_start"],
        version.language,
        not bundle["published"],
        bundle["year"] or _year(version.edition),
    )
    return CiteResult(
        version.code,
        version.edition,
        version.language,
        node["path"],
        node["title"],
        style,
        cite_row(bundle, node["path"], node["page_start"]),
        format_reference(reference, style),
    )


def _year(edition: str) -> int | None:
    match = re.search(r"(?<!\d)(\d{4})(?!\d)", edition)
    return int(match.group(1)) if match else None
