"""Where a term is defined: terminology chapters, definition lists and symbol tables, in fr/de/it/en.

Read at index time from a bundle's clauses. A definition is a term (a word group, or a symbol such
as `s_k`), the clause that defines it and the defining text. Three forms are recognised:

- a definition list, anywhere: `**charge utile** : …`, `**Nutzlast** — …`, `- **term**: …`;
- inside a terminology chapter (`Terminologie`, `Begriffe`, `Definitions`, `Termes et définitions`,
  `Notations`, `Symbols` …): also `term : …` lines, symbol lists (`$s_k$ charge de neige ; $q_k$ …`)
  and subclauses whose title is the term and whose text defines it;
- a symbol table: a pipe table whose first column is headed `Symbole`, `Symbol`, `Formelzeichen`,
  `Simbolo`, `Notation` …, one row per symbol.

Pure: no index, no frontend. `rank` orders candidates for a query: the exact term, then an
inflected form of it (plural, case ending), then a term or definition that mentions it.
"""

from __future__ import annotations

import re

from normcli.fold import fold
from normcli.model import Node
from normcli.record import record

_TERMINOLOGY = re.compile(
    r"\b(?:terminolog\w*|begriff\w*|definition\w*|definizion\w*|termes?|terms?|termini|glossa\w*|vocabula\w*"
    r"|notations?|symbol\w*|simbol\w*|formelzeichen|bezeichnungen|abkurzungen|abbreviations?|abreviations?|abbreviazioni)\b"
)
_SYMBOL_HEADER = re.compile(r"^(?:symboles?|symbols?|formelzeichen|zeichen|simbol[oi]|notations?|grandeurs?|grossen?|notation)$")
_BOLD_ENTRY = re.compile(r"^\s*(?:[-*+]\s+)?\*\*(?P<term>[^*\n]{1,120}?)\*\*\s*(?:[:：—–-]|\.\s)\s*(?P<text>\S.*)$")
_PLAIN_ENTRY = re.compile(r"^\s*(?:[-*+]\s+)?(?P<term>[^\s:|#$][^:|#\n]{0,80}?)\s+[:—–]\s+(?P<text>\S.*)$")
_SYMBOL = re.compile(r"\$(?P<latex>[^$\n]{1,40})\$")
_SYMBOL_LIST_ITEM = re.compile(r"^\s*(?P<symbols>(?:\$[^$\n]{1,40}\$\s*,?\s*)+)\s*(?P<text>[^;$][^;]*)$")
_NOTE = re.compile(r"^(?:note|notes|nota|anmerkung|hinweis|remarque|example|exemple|beispiel|esempio|source|quelle|fonte)\b")
_ABBREVIATION = re.compile(r"^(?P<term>.*?)\s*\((?P<short>[^()]{1,15})\)\s*$")
_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ζ": "zeta", "η": "eta", "θ": "theta",
    "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "xi", "π": "pi", "ρ": "rho", "σ": "sigma",
    "τ": "tau", "υ": "upsilon", "φ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega", "Δ": "delta", "Γ": "gamma",
    "Θ": "theta", "Λ": "lambda", "Σ": "sigma", "Φ": "phi", "Ψ": "psi", "Ω": "omega",
}  # fmt: skip
# Endings dropped to meet an inflected form: plurals and case endings of fr/de/it/en, longest first.
_ENDINGS = ("ungen", "ences", "ances", "ern", "en", "es", "er", "e", "s", "n", "i")
MAX_DEFINITION = 600


@record
class Definition:
    """A term and the text that defines it in one clause; `kind` is `term` or `symbol`."""

    term: str
    kind: str
    node_path: str
    definition: str


def is_terminology(title: str) -> bool:
    """Whether a clause title announces terms, definitions or symbols (in any of the four languages):
    its first or last word says so (`Termes et définitions`, `Allgemeine Begriffe`, `Symbols`), not
    merely a word inside it (`The symbols file format`)."""
    found = re.findall(r"[a-z]+", fold(title))
    return bool(found) and bool(_TERMINOLOGY.fullmatch(found[0]) or _TERMINOLOGY.fullmatch(found[-1]))


def symbol_key(latex: str) -> str:
    """A symbol as looked up: `$c_{pe}$`, `c_pe` and `c_{pe}` are one; `\\mu_i` and `μ_i` are one."""
    text = latex.strip().strip("$")
    text = "".join(_GREEK.get(char, char) for char in text)
    text = re.sub(r"\\(?:mathrm|text|mathit|boldsymbol|mathbf)\s*", "", text)
    text = re.sub(r"[\\{}\s]", "", text)
    return text


def term_key(term: str) -> str:
    """A term as looked up: folded (case, accents), its spaces and hyphens made one space; a symbol
    as `symbol_key`, lowercase (`C_e` and `c_e` are both found; the exact case ranks first)."""
    if "_" in term or "\\" in term or term.strip().startswith("$"):
        return symbol_key(term).lower()
    return " ".join(re.findall(r"[a-z0-9_]+", fold(term)))


def stem_key(term: str) -> str:
    """The key with each word's inflection dropped: `charges utiles` and `charge utile` meet."""
    return " ".join(_stem(word) for word in term_key(term).split())


def _stem(word: str) -> str:
    for ending in _ENDINGS:
        if len(word) > len(ending) + 3 and word.endswith(ending):
            return word[: -len(ending)]
    return word


def find(nodes: list[Node]) -> list[Definition]:
    """Every definition in a bundle's clauses, in reading order."""
    found: list[Definition] = []
    in_terms: dict[str, bool] = {}
    for node in nodes:
        terminology = is_terminology(node.title) or in_terms.get(node.parent_path or "", False)
        in_terms[node.path] = terminology
        before = len(found)
        _from_lines(node, terminology, found)
        _from_tables(node, found)
        if terminology and len(found) == before and not node.children and _defines_by_title(node):
            # A subclause of a terminology chapter titled by its term (`3.1.4 charge utile`).
            found.append(Definition(node.title.strip(), "term", node.path, _first_paragraph(node.text)))
    return found


def _defines_by_title(node: Node) -> bool:
    """Whether a clause of a terminology chapter reads as one entry: a short title that is not itself
    a heading of terms, over a paragraph of prose."""
    first = node.text.lstrip()[:1]
    return bool(first) and first not in "|$!#<" and len(node.title.split()) <= 6 and not is_terminology(node.title)


def _from_lines(node: Node, terminology: bool, found: list[Definition]) -> None:
    in_math = False
    lines = node.text.split("\n")
    if terminology:
        _indented_entries(lines, node.path, found)
    for line in lines:
        if line.strip().startswith("$$"):
            in_math = not in_math if line.strip().count("$$") == 1 else in_math
            continue
        if in_math or line.lstrip().startswith("|"):
            continue
        match = _BOLD_ENTRY.match(line) or (_plain_entry(line) if terminology else None)
        if match and not _SYMBOL.fullmatch(match.group("term").strip()):
            _add_term(match.group("term"), node.path, match.group("text"), found)
            continue
        if terminology and "$" in line:
            for item in re.split(r"\s*;\s*", line.strip().rstrip(".")):
                symbols = _SYMBOL_LIST_ITEM.match(item)
                if symbols:
                    text = symbols.group("text").strip(" :–—-")
                    for latex in _SYMBOL.findall(symbols.group("symbols")):
                        found.append(Definition(latex.strip(), "symbol", node.path, text))


_INDENT = re.compile(r"^(?:\s{2,}|\t)\S")


def _indented_entries(lines: list[str], path: str, found: list[Definition]) -> None:
    """A definition list as plain text and reStructuredText write it: the term alone on its line, its
    definition indented on the lines below (`upstream` / `   The source of software …`)."""
    for number, line in enumerate(lines[:-1]):
        term = line.strip()
        if not term or line[:1].isspace() or not _INDENT.match(lines[number + 1]):
            continue
        if len(term) > 60 or len(term.split()) > 6 or term[-1] in ".:;,!?|" or term.startswith(("$", "|", "#", "!", "-", "*")):
            continue
        if re.match(r"\d", term) or _NOTE.match(fold(term)):  # a numbered line, a note
            continue
        body = []
        for following in lines[number + 1 :]:
            if not _INDENT.match(following):
                break
            body.append(following.strip())
        found.append(Definition(term.strip("\"“”„«»'`*_ "), "term", path, _clip(" ".join(body))))


def _plain_entry(line: str) -> re.Match[str] | None:
    """`term : definition` without bold, in a terminology chapter: not a note or an example, no numbers."""
    match = _PLAIN_ENTRY.match(line)
    if match is None or re.search(r"\d", match.group("term")) or _NOTE.match(fold(match.group("term"))):
        return None
    return match


def _add_term(raw: str, path: str, text: str, found: list[Definition]) -> None:
    term = re.sub(r"\s+", " ", raw).strip().rstrip(":").strip("\"“”„«»'`*_ ")
    definition = _clip(text)
    if not term or len(term.split()) > 10:
        return
    short = _ABBREVIATION.match(term)
    if short and not re.search(r"\d", short.group("short")):
        found.append(Definition(short.group("term"), "term", path, definition))
        found.append(Definition(short.group("short"), "term", path, definition))
        return
    found.append(Definition(term, "term", path, definition))


def _from_tables(node: Node, found: list[Definition]) -> None:
    """Rows of pipe tables whose first column is headed as symbols."""
    rows: list[list[str]] = []
    for line in [*node.text.split("\n"), ""]:
        if line.lstrip().startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
            continue
        if len(rows) >= 3 and _SYMBOL_HEADER.match(fold(rows[0][0]).strip(" .:")):
            for row in rows[2:]:
                if len(row) < 2:
                    continue
                meaning = " – ".join(cell for cell in row[1:] if cell and cell not in ("–", "-"))
                symbols = _SYMBOL.findall(row[0]) or [part.strip() for part in row[0].split(",") if part.strip()]
                for latex in symbols:
                    found.append(Definition(latex.strip(), "symbol", node.path, _clip(meaning)))
        rows = []


def _first_paragraph(text: str) -> str:
    paragraph = next((part for part in re.split(r"\n\s*\n", text.strip()) if part.strip()), "")
    return _clip(paragraph)


def _clip(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= MAX_DEFINITION else text[: MAX_DEFINITION - 1].rsplit(" ", 1)[0] + "…"


def rank(query: str, term: str, definition: str) -> int | None:
    """How well a definition answers `query`: 0 the exact term, 1 an inflected form of it, 2 a term
    or definition that mentions it; None when it does not match. A one-letter query matches only
    exactly (a symbol such as `A`): as a mention it would match almost everything."""
    wanted, held = term_key(query), term_key(term)
    if not wanted:
        return None
    if wanted == held or symbol_key(query) == symbol_key(term):
        return 0
    if len(wanted) < 2:
        return None
    if stem_key(query) == stem_key(term):
        return 1
    stems = stem_key(query).split()
    if len(wanted) >= 3 and (
        _contains(stem_key(term).split(), stems) or _contains([_stem(w) for w in term_key(definition).split()], stems)
    ):
        return 2
    return None


def _contains(words: list[str], wanted: list[str]) -> bool:
    """Whether `wanted` occurs in `words` as consecutive words."""
    size = len(wanted)
    return any(words[start : start + size] == wanted for start in range(len(words) - size + 1))
