"""The cross-reference grammar: links and mentions of clauses, annexes, figures, tables and norms.

Mentions are recognised in French, German, Italian and English. A bare number such as `4.2` is
only taken for a clause when the norm has that clause or when it has three or more parts, so
that decimals (`1.5`) and dates are not mistaken for references.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import unquote

from normcli.fold import code_key, path_key
from normcli.model import CrossRef

_NORM_BODY = r"(?:SIA|SN|VSS|EN|prEN|DIN|ISO|IEC|ÖNORM|OENORM|BS|NF|RFC|ASTM|ACI|CEN/TS)"
_NORM_PREFIX = rf"\b{_NORM_BODY}(?:\s+(?:EN|ISO|IEC))?(?:\s+ISO)?"
_NORM_NUMBER = r"\d+(?:-\d+)*(?:\s\d{3}(?!\d))*"
_CLAUSE = r"\d+(?:\.\d+)*|[A-Z](?:\.\d+)+"
_CLAUSE_WORD = (
    r"(?i:chiffres?|ch\.|ziffern?|ziff\.|sections?|clauses?|subclauses?|cifr[ae]|"
    r"paragraphes?|abschnitte?|kapitel|chapitres?|capitol[oi]|sezion[ei]|art\.|articles?)"
)
_ANNEX_WORD = r"(?i:annexes?|anh[aä]nge?|annex(?:es)?|appendix|appendices|allegat[oi]|appendice)"
_FIGURE_WORD = r"(?i:figures?|fig\.|abbildung(?:en)?|abb\.|bild(?:er)?|figur(?:en)?|figur[ae])"
_TABLE_WORD = r"(?i:tableaux?|tabellen?|tables?|tabell[ae]|tab\.)"

_NORM_REF = re.compile(
    rf"(?P<code>{_NORM_PREFIX}\s?{_NORM_NUMBER})(?::(?P<year>\d{{4}}))?"
    rf"(?:,\s*(?:{_CLAUSE_WORD}\s*)?(?:(?P<annex>{_ANNEX_WORD}\s+[A-Z])\b|(?P<clause>{_CLAUSE})))?"
)
_LINK = re.compile(r"(?<!!)\[(?P<label>[^\]\n]*)\]\((?P<target>#[^)\s]+|norm:[^)\s]+)\)")
_IMAGE = re.compile(r"!\[[^\]\n]*\]\([^)\n]*\)")
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$|`[^`\n]+`|<[^>\n]+>|\]\([^)\n]*\)", re.S)
_WORD_CLAUSE = re.compile(rf"\b{_CLAUSE_WORD}\s+(?P<clause>{_CLAUSE})(?![\w])")
_ANNEX = re.compile(rf"\b(?P<word>{_ANNEX_WORD})\s+(?P<letter>[A-Z])\b(?!\.\d)")
_FIGURE = re.compile(rf"(?<![\w.])(?P<word>{_FIGURE_WORD})\s+(?P<num>[A-Z]?\d+(?:[.\-]\d+)*)")
_TABLE = re.compile(rf"(?<![\w.])(?P<word>{_TABLE_WORD})\s+(?P<num>[A-Z]?\d+(?:\.\d+)*)")
_BARE = re.compile(r"(?<![\w.,/:#-])(?P<clause>\d{1,3}(?:\.\d{1,3}){1,9}|[A-Z](?:\.\d{1,3}){1,9})(?![\w%]|[.,]\d)")


def _annex_or_clause(path: str) -> str:
    return "annex" if path_key(path).startswith("annex") else "clause"


def _explicit(label: str, target: str) -> CrossRef:
    if target.startswith("#"):
        code, path = None, unquote(target[1:])
    else:
        code_part, _, path = unquote(target[len("norm:") :]).partition("#")
        code, path = code_part.strip(), path or ""
    kind = "norm" if not path else _annex_or_clause(path)
    if path.lower().startswith(("fig-", "figure-")):
        kind, path = "figure", path.split("-", 1)[1]
    elif path.lower().startswith(("tab-", "table-")):
        kind, path = "table", path.split("-", 1)[1]
    return CrossRef(label or target, "explicit", code, path or None, kind)


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


def find_references(text: str, has_clause: Callable[[str], bool] = lambda _path: False) -> list[CrossRef]:
    """Every cross-reference in a clause's Markdown, in order, without repeats.

    `has_clause` says whether the norm being read holds a path; it decides bare two-part numbers.
    """
    found: list[tuple[int, CrossRef]] = []
    scan = _IMAGE.sub(lambda m: " " * len(m.group()), text)
    for match in _LINK.finditer(scan):
        found.append((match.start(), _explicit(match.group("label"), match.group("target"))))
        scan = _blank(scan, match.start(), match.end())
    scan = _MATH.sub(lambda m: " " * len(m.group()), scan)
    for match in _NORM_REF.finditer(scan):
        code = re.sub(r"\s+", " ", match.group("code")).strip()
        path = match.group("annex") or match.group("clause")
        kind = "norm" if not path else _annex_or_clause(path)
        found.append((match.start(), CrossRef(match.group().strip(), "implicit", code, path, kind)))
        scan = _blank(scan, match.start(), match.end())
    for pattern, kind, group in ((_FIGURE, "figure", "num"), (_TABLE, "table", "num")):
        for match in pattern.finditer(scan):
            found.append((match.start(), CrossRef(match.group(), "implicit", None, match.group(group), kind)))
            scan = _blank(scan, match.start(), match.end())
    for match in _ANNEX.finditer(scan):
        path = f"{match.group('word')} {match.group('letter')}"
        found.append((match.start(), CrossRef(match.group(), "implicit", None, path, "annex")))
        scan = _blank(scan, match.start(), match.end())
    for match in _WORD_CLAUSE.finditer(scan):
        path = match.group("clause")
        found.append((match.start(), CrossRef(match.group(), "implicit", None, path, _annex_or_clause(path))))
        scan = _blank(scan, match.start(), match.end())
    for match in _BARE.finditer(scan):
        path = match.group("clause")
        parts = path.count(".") + 1
        if has_clause(path) or (parts >= 3 and path[0].isdigit()):
            found.append((match.start(), CrossRef(path, "implicit", None, path, "clause")))
    found.sort(key=lambda item: item[0])
    unique: dict[tuple, CrossRef] = {}
    for _, ref in found:
        key = (
            ref.type,
            code_key(ref.target_code) if ref.target_code else "",
            path_key(ref.target_path) if ref.target_path else "",
            ref.target_kind,
        )
        unique.setdefault(key, ref)
    return list(unique.values())
