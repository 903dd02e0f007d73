"""Where a path or a reference leads: a clause looked up as it is asked or cited, and each stored
cross-reference (found by `xrefs.py`'s grammar) resolved against the norms of this workspace."""

from __future__ import annotations

from normcli import results as r
from normcli.catalogue import Catalogue, Version, split_code
from normcli.errors import InvalidArgument, NotFound
from normcli.fold import code_key, path_key
from normcli.labels import DIVISION_LABEL, FIGURE_LABEL, TABLE_LABEL, strip_clause_label
from normcli.operations import PATH
from normcli.record import replace
from normcli.store.queries import Index

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    import sqlite3


def check_path(path: str) -> str:
    """A clause path as asked, stripped; `invalid_argument` when empty, too long or holding control characters."""
    if not isinstance(path, str) or not path.strip():
        raise InvalidArgument("a clause path is required (for example 4.2.1)", param="path")
    if len(path) > (PATH.high or 0) or any(ord(char) < 32 for char in path):
        raise InvalidArgument("the clause path is too long or holds control characters", param="path")
    return path.strip()


def find_node(index: Index, version: Version, path: str) -> tuple[sqlite3.Row, str | None]:
    """The clause at `path` or with that nodeId (then None), else the heading above it when `path` is a numbered paragraph
    of its text (then the requested path): SPEC §6 falls back only to a heading without subclauses.

    Otherwise `not_found`, naming the nearest clauses that exist: the nearest heading above and its
    subclauses, or the chapters.
    """
    path = check_path(path)
    if len(path) == 32 and not path.strip(_HEX):  # a nodeId, as the toc gives it: the same clause in every language
        row = index.node_by_node_id(version.bundle_id, path)
        if row is not None:
            return row, None
    found = candidates(path_key(path))
    held = index.nodes_by_keys(version.bundle_id, [candidate for candidate, _ in found])
    for candidate, exact in found:
        node = held.get(candidate)
        if node is None:
            continue
        if exact:
            return node, None
        if node["child_count"] == 0:
            return node, path
        nearest = [node["path"], *(row["path"] for row in index.children(version.bundle_id, node))]
        raise NotFound("path", path, nearest, version.label, f"no clause '{path}' in {version.label}")
    letter = annex_letter(path_key(path))
    if letter is not None:
        node = index.nodes_by_keys(version.bundle_id, [letter]).get(letter)
        if node is not None and annex_level(node):
            return node, None
    # As the clause is cited in text: `§ 4.2.1`, `chiffre 4.2.1`, `Ziffer 4.2.1`, `section 4.2.1`.
    bare = strip_clause_label(path)
    if bare != path and bare:
        node, requested = find_node(index, version, bare)
        return node, requested and path
    chapters = [row["path"] for row in index.outline(version.bundle_id, 1)]
    raise NotFound("path", path, chapters, version.label, f"no clause '{path}' in {version.label}")


_HEX = "0123456789abcdef"


def _is_letter(key: str) -> bool:
    """Whether a folded key is one lowercase letter (`[a-z]`), an annex named without its word."""
    return len(key) == 1 and "a" <= key <= "z"


def _annex_alias(key: str) -> str | None:
    """The other spelling of an annex's folded key: `a` → `annexa`, and `annexa.1` → `a.1` (an annex's
    subclauses are numbered by its letter alone). `annexa` never names a bare `A` heading: that is an index letter."""
    if _is_letter(key):
        return f"annex{key}"
    if key.startswith("annex") and _is_letter(key[5:6]) and key[6:7] == ".":
        return key[5:]
    return None


def annex_letter(key: str) -> str | None:
    """The letter alone that an annex named with its word (`annexa`) is printed as when the word is not (`A
    Implementation`, path `A`, SPEC §1); it names such a clause only at the chapters' level, where annexes stand
    (a letter `A` one level down is an index's group)."""
    return key[5:] if key.startswith("annex") and _is_letter(key[5:]) else None


def annex_level(node: sqlite3.Row) -> bool:
    """Whether a clause whose path is a letter alone stands where annexes stand, at the chapters' level: at the top of
    the tree, or right under a division (`Part III`, whose chapters are one level down, SPEC §1). A letter deeper
    down, under a chapter such as `Index`, is an index's group."""
    if node["depth"] == 1:
        return True
    if not node["parent_path"]:
        return False
    import re  # only for a letter below the top: `re` is a tenth of a section's start-up

    return bool(re.fullmatch(rf"{DIVISION_LABEL}\s+\S+", node["parent_path"]))


def candidates(key: str) -> list[tuple[str, bool]]:
    """The folded paths to look for when `key` is asked, nearest first, each with whether finding it
    counts as finding the clause itself (`a` also names `Annexe A`, `Annexe A.1` names `A.1`) or only the heading above it."""
    found = [(key, True)]
    alias = _annex_alias(key)
    if alias:
        found.append((alias, True))
    trimmed = key
    while "." in trimmed:
        trimmed = trimmed.rsplit(".", 1)[0]
        found.append((trimmed, False))
        alias = _annex_alias(trimmed)
        if alias:
            found.append((alias, False))
    return found


def exact_keys(keyword: str) -> list[str]:
    """The folded paths a clause-number keyword names exactly (`4.2.1`, `Annexe A`)."""
    return [candidate for candidate, is_exact in candidates(path_key(keyword)) if is_exact]


def paragraph_of(node: sqlite3.Row, requested: str) -> bool:
    """Whether `requested` (4.2.6.1) is a numbered paragraph in the text of heading `node` (4.2.6):
    one level below it, under a heading that has no subclauses of its own."""
    return path_key(requested).rsplit(".", 1)[0] == node["path_key"] and node["child_count"] == 0


def merge_mentions(refs: list[r.ResolvedRef]) -> list[r.ResolvedRef]:
    """One entry per target, in the order of first mention: `chiffre 4.2.3` and `voir 4.2.3` become one
    reference whose `texts` hold both wordings (SPEC §6), an explicit link standing for the mentions."""
    merged: dict[tuple, list[str]] = {}
    first: dict[tuple, r.ResolvedRef] = {}
    for ref in refs:
        key = (
            (ref.target_code, ref.target_path, ref.target_kind) if ref.target_code or ref.target_path else (None, ref.text, ref.target_kind)
        )
        wordings = merged.setdefault(key, [])
        if key not in first or (ref.type == "explicit" and first[key].type != "explicit"):
            first[key] = ref  # a link is the surest form of a reference: it stands for the others
        if ref.text not in wordings:
            wordings.append(ref.text)
    return [replace(ref, texts=tuple(merged[key])) for key, ref in first.items()]


class References:
    """Resolves the stored references of one version against the workspace's norms."""

    def __init__(self, index: Index, catalogue: Catalogue) -> None:
        self.index = index
        self.catalogue = catalogue

    def resolve(self, version: Version, rows: list[sqlite3.Row]) -> tuple[r.ResolvedRef, ...]:
        """Where the references of `version` lead in this workspace, one entry per target (its every
        wording in `texts`), the resolvable ones first."""
        return tuple(sorted(merge_mentions(self.resolve_each(version, rows)), key=lambda ref: not ref.resolvable))

    def resolve_each(self, version: Version, rows: list[sqlite3.Row]) -> list[r.ResolvedRef]:
        """Where each stored reference of `version` leads, in the order of `rows`.

        A long clause holds hundreds of references: the clauses they name are fetched with one
        query per target norm, and each other norm's edition is chosen once.
        """
        own_key = code_key(version.code)
        editions: dict[str, Version | None] = {own_key: version}
        planned = []
        wanted: dict[int, set[str]] = {}
        for row in rows:
            internal = row["target_code"] is None or code_key(row["target_code"]) == own_key
            key = own_key if internal else code_key(row["target_code"])
            if key not in editions:
                editions[key] = self._edition_for(row["target_code"], version.language)
            target = editions[key]
            planned.append((row, internal, target))
            if target is not None and row["target_kind"] in ("clause", "annex") and row["target_path"]:
                key = path_key(row["target_path"])
                letter = annex_letter(key)
                wanted.setdefault(target.bundle_id, set()).update(
                    [*(candidate for candidate, _ in candidates(key)), *([letter] if letter else [])]
                )
        nodes = {bundle_id: self.index.nodes_by_keys(bundle_id, sorted(keys)) for bundle_id, keys in wanted.items()}
        parts: dict[tuple[int, str], list[sqlite3.Row]] = {}
        return [self._resolve_one(row, internal, version, target, nodes, parts) for row, internal, target in planned]

    def _edition_for(self, code: str, language: str) -> Version | None:
        """The edition another norm's reference leads to: the default one, in the reader's language if it has it."""
        try:
            if code_key(split_code(code, None)[0]) not in self.catalogue.by_code:
                return None  # a norm not held here (most references to other norms): no error to build
        except InvalidArgument:
            return None
        for wanted_language in (language, None):
            try:
                return self.catalogue.version(code, None, wanted_language)
            except (NotFound, InvalidArgument):
                continue
        return None

    def _resolve_one(
        self,
        row: sqlite3.Row,
        internal: bool,
        version: Version,
        target: Version | None,
        nodes: dict[int, dict[str, sqlite3.Row]],
        parts: dict[tuple[int, str], list[sqlite3.Row]],
    ) -> r.ResolvedRef:
        kind, target_path = row["target_kind"], row["target_path"]
        target_code = version.code if internal else row["target_code"]

        def answer(resolvable: bool, path: str | None = target_path, title: str | None = None) -> r.ResolvedRef:
            edition = target.edition if target is not None and resolvable else None
            return r.ResolvedRef(row["text"], row["type"], target_code, path, kind, internal, resolvable, title, edition)

        if target is None:
            return answer(False)
        if kind == "norm" or not target_path:
            return answer(True, None, target.title)
        if kind in ("figure", "table"):
            if (target.bundle_id, kind) not in parts:
                parts[(target.bundle_id, kind)] = (
                    self.index.figures(target.bundle_id) if kind == "figure" else self.index.tables(target.bundle_id)
                )
            id_column = "fig_id" if kind == "figure" else "table_id"
            wanted = path_key(target_path)
            match = next((item for item in parts[(target.bundle_id, kind)] if item["number"] and path_key(item["number"]) == wanted), None)
            return answer(True, match[id_column], match["caption"]) if match is not None else answer(False)
        held = nodes.get(target.bundle_id, {})
        for candidate, exact in candidates(path_key(target_path)):
            node = held.get(candidate)
            if node is not None:
                if exact or paragraph_of(node, target_path):
                    return answer(True, node["path"], node["title"])
                return answer(False)
        letter = annex_letter(path_key(target_path))
        node = held.get(letter) if letter else None
        if node is not None and annex_level(node):  # `Annexe A` in the text, the annex printed `A Implementation`
            return answer(True, node["path"], node["title"])
        return answer(False)


# `tab-3`, `fig-2.1`, `Tableau 3`, `Figure 3`: a table or a figure named where a clause path is expected.
_PART_ID = r"(?i)^(?P<kind>tab|table|fig|figure)-(?P<num>\S+)$"


def part_reference(path: str) -> tuple[str, str] | None:
    """(`table` or `figure`, the id or number) when `path` names a table or figure rather than a clause."""
    text = path.strip()
    if text[:1].isascii() and text[:1].isdigit():
        return None  # a clause number (`4.2.1`): every table and figure word starts with a letter
    import re  # a pattern only for what is not a clause number: `re` (with `enum`) is a tenth of a section's start-up

    match = re.match(_PART_ID, text)
    if match:
        return ("table" if match.group("kind").lower().startswith("tab") else "figure"), text
    for kind, label in (("table", TABLE_LABEL), ("figure", FIGURE_LABEL)):
        labelled = re.match(rf"^{label}\s*(?P<num>[A-Z]?\d+(?:[.\-]\d+)*)$", text)
        if labelled:
            return kind, labelled.group("num")
    return None


def find_table(index: Index, version: Version, wanted: str) -> sqlite3.Row:
    """The table named by its id (`tab-3`), its number (`3`) or its caption label (`Tableau 3`)."""
    import re

    rows = index.tables(version.bundle_id)
    number = re.sub(rf"^(?:{TABLE_LABEL}\s*|tab-|table-)", "", wanted.strip(), flags=re.I)
    keys = {path_key(wanted), path_key(f"tab-{number}")}
    row = next(
        (row for row in rows if path_key(row["table_id"]) in keys or (row["number"] and path_key(row["number"]) == path_key(number))), None
    )
    if row is None:
        raise NotFound("table", wanted, [row["table_id"] for row in rows], version.label)
    return row


def table_rows(markdown: str) -> tuple[tuple[str, ...], ...]:
    """A pipe table's cells, row by row, the header first and the rule line left out."""
    import re

    rows = []
    for line in markdown.splitlines():
        stripped = line.strip()
        if not stripped.startswith("|") or re.fullmatch(r"\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?", stripped):
            continue
        body = stripped[1:-1] if stripped.endswith("|") and len(stripped) > 1 else stripped[1:]
        cells = re.split(r"(?<!\\)\|", body)
        rows.append(tuple(cell.strip().replace("\\|", "|") for cell in cells))
    return tuple(rows)


def find_clause_or_part(index: Index, version: Version, path: str) -> tuple[sqlite3.Row, str | None]:
    """The clause at `path`, or the clause holding the table or figure it names (`tab-3`, `Figure 2`)."""
    part = part_reference(check_path(path))
    if part is None:
        return find_node(index, version, path)
    # A heading printed `Table 1` or `Figure 3` (a manual of font tables, say) is a clause by that path:
    # the clause itself comes before the clause that holds the table of that number.
    exact = index.nodes_by_keys(version.bundle_id, [path_key(path)]).get(path_key(path))
    if exact is not None:
        return exact, None
    kind, wanted = part
    row = find_table(index, version, wanted) if kind == "table" else find_figure(index, version, wanted)
    node, _ = find_node(index, version, row["node_path"])
    return node, path.strip()


def find_figure(index: Index, version: Version, figure_id: str) -> sqlite3.Row:
    """The figure named by its id (`fig-3`), its number (`3`) or its caption label (`Figure 3`)."""
    import re

    rows = index.figures(version.bundle_id)
    asked = figure_id.strip().lower()
    exact = [row for row in rows if row["fig_id"].lower() in (asked, f"fig-{asked}")]
    if exact:
        return exact[0]
    number = re.sub(rf"^{FIGURE_LABEL}\s*(?=[A-Z]?\d)", "", figure_id.strip())
    # `fig-2-1` for `fig-2.1` (a hyphen where the id has a dot, as a file name or a reader may write it): forgiven
    # when it names exactly one figure; `path_key`, which drops hyphens, would read it as `fig-21`
    loose = {asked.replace("-", "."), f"fig-{asked}".replace("-", ".")}
    dotted = [
        row
        for row in rows
        if row["fig_id"].lower().replace("-", ".") in loose
        or (row["number"] and row["number"].lower().replace("-", ".") == number.lower().replace("-", "."))
    ]
    if len(dotted) == 1:
        return dotted[0]
    if len(dotted) > 1:
        raise NotFound("figure", figure_id, [row["fig_id"] for row in dotted], version.label)
    wanted = {path_key(figure_id), path_key(f"fig-{figure_id}")}
    row = next(
        (row for row in rows if path_key(row["fig_id"]) in wanted or (row["number"] and path_key(row["number"]) == path_key(number))),
        None,
    )
    if row is None:
        raise NotFound("figure", figure_id, [row["fig_id"] for row in rows], version.label)
    return row
