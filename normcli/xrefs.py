"""The cross-reference grammar: links and mentions of clauses, annexes, figures, tables and norms.

Mentions are recognised in French, German, Italian and English. A bare number such as `4.2` is
only taken for a clause when the norm has that clause or when it has three or more parts, so
that decimals (`1.5`) and dates are not mistaken for references.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from urllib.parse import unquote

from normcli.fold import code_key, path_key
from normcli.labels import ANNEX_LABEL, CLAUSE_LABEL, FIGURE_LABEL, TABLE_LABEL
from normcli.model import CrossRef

# Publishers whose codes are recognised in any text; a workspace adds the codes it holds or requires.
_PUBLISHERS = (
    "SIA|SN|VSS|ASTRA|SIA D|EN|prEN|CEN/TS|CEN/TR|CLC/TS|DIN|DIN SPEC|VDI|VDE|DVGW|DWA|ISO|IEC|ISO/IEC|IEC/IEEE|"
    "ISO/TS|ISO/TR|ÖNORM|OENORM|ÖVE|NBN|NEN|NF|UNI|UNE|BS|BS EN|DS|SS|NS|SFS|PN|CSN|ČSN|STN|MSZ|LST|"
    "AS/NZS|AS|NZS|CSA|ANSI|ASTM|ACI|AISC|AASHTO|ASCE|ASME|NFPA|IEEE|IBC|ICC|JIS|GOST|SANS|"
    "ETAG|EAD|CUAP|ETSI|ETSI EN|ETSI TS|ITU-T|ITU-R|ECMA|RFC|BCP|STD|W3C|fib|CEB|RILEM|EOTA|FGSV"
)
_NORM_BODY = rf"(?:{'|'.join(sorted(_PUBLISHERS.split('|'), key=len, reverse=True))})"
# `DIN EN ISO 6946`, `NBN EN 1990`, `ÖNORM EN 1991`: a national prefix before a European or ISO code.
_NORM_PREFIX = rf"(?<![\w/-]){_NORM_BODY}(?:\s+(?:EN|ISO|IEC|CEN/TS|ISO/IEC))?(?:\s+ISO)?"
# The number: a series letter (`ÖNORM B 1991-1-3`, `ITU-T X.509`), parts joined by `-` or `.`
# (`1991-1-3`, `1170.2`), groups of three digits (`640 312`, `12 001`, `300 328`), a revision letter (`312a`).
_NORM_NUMBER = r"(?:[A-Z]\.?\s?(?=\d))?\d+(?:[-.]\d+)*(?:\s\d{3}(?!\d))*(?:[a-z](?![\w]))?"
_CLAUSE = r"\d+(?:\.\d+)*|[A-Z](?:\.\d+)+"
_ANNEX_WORD = ANNEX_LABEL

_NORM_REF = re.compile(
    rf"(?P<code>{_NORM_PREFIX}[\s-]?{_NORM_NUMBER})(?::(?P<year>\d{{4}}))?"
    rf"(?:,\s*(?:{CLAUSE_LABEL}\s*)?(?:(?P<annex>{_ANNEX_WORD}\s+[A-Z])\b|(?P<clause>{_CLAUSE})))?"
)
_LINK = re.compile(r"(?<!!)\[(?P<label>[^\]\n]*)\]\((?P<target>#[^)\s]+|norm:[^)\s]+)\)")
_IMAGE = re.compile(r"!\[[^\]\n]*\]\([^)\n]*\)")
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$|`[^`\n]+`|<[^>\n]+>|\]\([^)\n]*\)", re.S)
_WORD_CLAUSE = re.compile(rf"\b{CLAUSE_LABEL}\s+(?P<clause>{_CLAUSE})(?![\w])")
# `Section 6 of [QUIC-RECOVERY]`, `section 3.2 of RFC 3986`: a clause of another document, read
# before the norm codes so that `RFC 3986` is not taken alone.
_CLAUSE_OF = re.compile(
    rf"\b{CLAUSE_LABEL}\s+(?P<clause>{_CLAUSE})(?![\w]),?\s+(?:of|in|de(?:\s+la)?|der|des|du|von|dell[ao]|della|nella)\s+"
    rf"(?:\[(?P<cite>[A-Za-z0-9][\w.\-]*)\]|(?P<norm>{_NORM_PREFIX}[\s-]?{_NORM_NUMBER}))"
)
# A bare number that the norm does not hold is a reference only after words that announce one,
# or in a list right after another reference; elsewhere `1.0.1` is a version, `10.0.0.1` an address.
_REFERENCE_CUE = re.compile(
    r"(?i:\b(?:voir|voyez|see|siehe|vgl\.|vedi|cf\.|selon|nach|gem[äa](?:ss|ß)|according to|conform[ée]ment [àa]|d'apr[èe]s|per))\W{0,3}$"
)
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
_LIST_JOINT = re.compile(r"^[\s,;–-]*(?:(?i:et|and|und|ou|or|oder|à|bis|to|e)\s*)?$")
_ANNEX = re.compile(rf"\b(?P<word>{_ANNEX_WORD})\s+(?P<letter>[A-Z])\b(?!\.\d)")
_FIGURE = re.compile(rf"(?<![\w.])(?P<word>{FIGURE_LABEL})\s+(?P<num>(?:[A-Z][.\-]?)?\d+(?:[.\-]\d+)*)")
_TABLE = re.compile(rf"(?<![\w.])(?P<word>{TABLE_LABEL})\s+(?P<num>(?:[A-Z][.\-]?)?\d+(?:[.\-]\d+)*)")
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


def _take(pattern: re.Pattern[str], scan: str, make: Callable[[re.Match[str]], CrossRef], found: list[tuple[int, CrossRef]]) -> str:
    """Collect the references `pattern` finds and blank them out, so later patterns skip them."""

    def keep(match: re.Match[str]) -> str:
        found.append((match.start(), make(match)))
        return " " * (match.end() - match.start())

    return pattern.sub(keep, scan)


def _announced(scan: str, start: int, ends: list[int]) -> bool:
    """Whether the bare number at `start` follows a word that announces a reference, or closely
    follows another reference as the next item of a list (`chiffres 4.2.1 et 4.2.7`)."""
    if _REFERENCE_CUE.search(scan, max(0, start - 40), start):
        return True
    previous = max((end for end in ends if end <= start), default=None)
    return previous is not None and start - previous <= 6 and _LIST_JOINT.match(scan[previous:start]) is not None


def _worded_reference(match: re.Match[str]) -> CrossRef:
    """`chiffre 4.2.1`, `Section 6 of [QUIC-RECOVERY]`, `section 3.2 of RFC 3986`."""
    path = match.group("clause")
    groups = match.groupdict()
    external = groups.get("norm") or (f"[{groups['cite']}]" if groups.get("cite") else None)
    code = re.sub(r"\s+", " ", external).strip() if external else None
    return CrossRef(match.group(), "implicit", code, path, _annex_or_clause(path))


def _norm_reference(match: re.Match[str]) -> CrossRef:
    code = re.sub(r"\s+", " ", match.group("code")).strip()
    path = match.group("annex") or match.group("clause")
    kind = "norm" if not path else _annex_or_clause(path)
    return CrossRef(match.group().strip(), "implicit", code, path, kind)


def generic_code(code: str) -> bool:
    """Whether the publisher grammar alone recognises `code` in a text (`SIA 262` yes, `XYZ 12` no)."""
    match = _NORM_REF.fullmatch(code.strip())
    return match is not None and re.sub(r"\s+", " ", match.group("code")) == re.sub(r"\s+", " ", code.strip())


@functools.lru_cache(maxsize=64)
def _known_patterns(codes: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]] | None:
    """The `CODE, CLAUSE` and `CLAUSE of CODE` patterns for codes the publisher grammar does not know."""
    exotic = sorted({code.strip() for code in codes if code.strip() and not generic_code(code)}, key=len, reverse=True)
    if not exotic:
        return None
    # Spaces and hyphens inside a code are written either way (`ABC 12-3`, `ABC 12 3`).
    body = "|".join(r"[\s-]?".join(re.escape(part) for part in re.split(r"[\s-]+", code)) for code in exotic)
    named = rf"(?<![\w/-])(?P<code>{body})(?![\w-])"
    code_first = re.compile(
        rf"{named}(?::(?P<year>\d{{4}}))?(?:,\s*(?:{CLAUSE_LABEL}\s*)?(?:(?P<annex>{_ANNEX_WORD}\s+[A-Z])\b|(?P<clause>{_CLAUSE})))?"
    )
    clause_first = re.compile(
        rf"\b{CLAUSE_LABEL}\s+(?P<clause>{_CLAUSE})(?![\w]),?\s+(?:of|in|de(?:\s+la)?|der|des|du|von|dell[ao]|della|nella)\s+(?P<norm>{body})(?![\w-])"
    )
    return code_first, clause_first


def find_references(
    text: str,
    has_clause: Callable[[str], bool] = lambda _path: False,
    has_table: Callable[[str], bool] = lambda _number: True,
    known_codes: tuple[str, ...] = (),
) -> list[CrossRef]:
    """Every cross-reference in a clause's Markdown, in order, without repeats.

    `has_clause` says whether the norm being read holds a path; it decides bare two-part numbers.
    `has_table` says whether it holds a table number: `Table 7-1` is one table where the norm has it,
    and `Tables 2-3` a range, read as its first table, where it does not. `known_codes` are the codes
    of the workspace's norms and of the bundle's `requires`: found whatever their publisher prefix.
    """

    def table(match: re.Match[str]) -> CrossRef:
        number = match.group("num")
        if "-" in number and not has_table(number):
            number = number.split("-", 1)[0]
        return CrossRef(match.group(), "implicit", None, number, "table")

    found: list[tuple[int, CrossRef]] = []
    # A reference never spans a paragraph break ("… in the Appendix" / "A new paragraph"): the break
    # becomes NULs, which no `\s` matches, of the same length so that positions stay those of `text`.
    scan = _PARAGRAPH_BREAK.sub(lambda m: "\0" * len(m.group()), text)
    scan = _IMAGE.sub(lambda m: " " * len(m.group()), scan)
    scan = _take(_LINK, scan, lambda m: _explicit(m.group("label"), m.group("target")), found)
    scan = _MATH.sub(lambda m: " " * len(m.group()), scan)
    known = _known_patterns(known_codes) if known_codes else None
    if known is not None:
        scan = _take(known[1], scan, _worded_reference, found)
    scan = _take(_CLAUSE_OF, scan, _worded_reference, found)
    if known is not None:
        scan = _take(known[0], scan, _norm_reference, found)
    scan = _take(_NORM_REF, scan, _norm_reference, found)
    scan = _take(_FIGURE, scan, lambda m: CrossRef(m.group(), "implicit", None, m.group("num"), "figure"), found)
    scan = _take(_TABLE, scan, table, found)
    scan = _take(_ANNEX, scan, lambda m: CrossRef(m.group(), "implicit", None, f"{m.group('word')} {m.group('letter')}", "annex"), found)
    scan = _take(_WORD_CLAUSE, scan, _worded_reference, found)
    ends = sorted(start + len(ref.text) for start, ref in found)
    for match in _BARE.finditer(scan):
        path = match.group("clause")
        if has_clause(path) or (path.count(".") >= 2 and path[0].isdigit() and _announced(scan, match.start(), ends)):
            found.append((match.start(), CrossRef(path, "implicit", None, path, "clause")))
            ends.append(match.end())
    found.sort(key=lambda item: item[0])
    for start, ref in found:
        ref.position = start
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
