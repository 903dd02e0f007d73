"""What changed between two editions of a norm: clauses aligned, then compared word by word.

Clauses are paired by path first. A pair whose title and text have nothing in common is split
again (the number was given to another clause), and the clauses left over on both sides are
paired by title and text: a clause moved from 4.2.5 to 4.2.6 is one `renumbered` change, not a
removal and an addition. Texts are compared as tokens in which a number (`0,4`), a formula
(`$s_k = …$`) and a table cell are one token each, so that a changed value stands out whole.

Pure: it knows nothing of the index; the caller hands it the clauses of both editions.
"""

from __future__ import annotations

import re
from collections import Counter
from difflib import SequenceMatcher

from normcli.fold import fold
from normcli.record import record
from normcli.results import Change, Segment

# Tokens, first alternative first: formulas, images and links whole, numbers with their decimal
# comma or point and thousands separators, words (with `_` for symbols such as s_k), any other sign.
_TOKEN = re.compile(
    r"\$\$.*?\$\$|\$[^$\n]+\$"
    r"|!\[[^\]\n]*\]\([^)\n]*\)"
    r"|[-+−±]?\d+(?:[.,'’]\d+)*(?:\s?%)?"
    r"|\w+(?:[-'’]\w+)*"
    r"|[^\w\s]",
    re.S,
)
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?[\s:|-]*-{2,}[\s:|-]*$")
_COMMENT = re.compile(r"<!--.*?-->|\*\*|__", re.S)
_NUMBER = re.compile(r"[-+−±]?\d")
CONTEXT = 6  # tokens of unchanged text kept on each side of a change
PATH_PAIR_KEEPS = 0.35  # below this, two clauses under one path are different clauses
RENUMBERED_AT = 0.6  # text similarity that makes two clauses under different paths one clause


@record
class Clause:
    """One clause of an edition as the comparison sees it: its path, title and own text."""

    path: str
    title: str
    text: str


def tokens(text: str) -> list[str]:
    """The tokens of a clause's Markdown: each table cell is one token, and so is each number and formula."""
    out: list[str] = []
    for line in _COMMENT.sub(" ", text).split("\n"):
        if _TABLE_RULE.match(line):
            continue
        if _TABLE_ROW.match(line):
            out += [cell.strip() or "·" for cell in line.strip().strip("|").split("|")]
        else:
            out += _TOKEN.findall(line)
    return out


def is_value(token: str) -> bool:
    """Whether a token is a value that reads the same in every language: a number, a formula or a numeric cell."""
    return token.startswith("$") or bool(_NUMBER.match(token)) or (any(char in "0123456789" for char in token) and len(token) < 24)


def paragraphs(text: str) -> list[list[str]]:
    """The tokens of a clause by paragraph (each table row a paragraph of its own): the units a
    long text is first compared in, so that only the paragraphs that differ are compared word by word."""
    units: list[list[str]] = []
    current: list[str] = []
    for line in _COMMENT.sub(" ", text).split("\n"):
        if not line.strip() or _TABLE_RULE.match(line) or _TABLE_ROW.match(line):
            if current:
                units.append(current)
                current = []
            if _TABLE_ROW.match(line) and not _TABLE_RULE.match(line):
                units.append(tokens(line))
            continue
        current += tokens(line)
    if current:
        units.append(current)
    return units


Opcode = tuple[str, int, int, int, int]


def opcodes(old: list[list[str]], new: list[list[str]]) -> list[Opcode]:
    """How the tokens of `old` become those of `new` (SequenceMatcher opcodes over the flat token lists).

    Paragraphs are matched first; the word-by-word comparison runs only inside the paragraphs that
    differ (one to one where as many differ on both sides), which keeps a long clause with a few
    changes fast."""
    old_flat = [token for unit in old for token in unit]
    new_flat = [token for unit in new for token in unit]
    if old_flat == new_flat:
        return [("equal", 0, len(old_flat), 0, len(new_flat))] if old_flat else []
    old_at, new_at = _offsets(old), _offsets(new)
    out: list[Opcode] = []
    outer = SequenceMatcher(None, [tuple(unit) for unit in old], [tuple(unit) for unit in new], autojunk=False)
    for op, i1, i2, j1, j2 in outer.get_opcodes():
        if op == "equal":
            _append(out, ("equal", old_at[i1], old_at[i2], new_at[j1], new_at[j2]))
        elif i2 - i1 == j2 - j1:
            for i, j in zip(range(i1, i2), range(j1, j2), strict=True):
                _words(old_flat, new_flat, (old_at[i], old_at[i + 1]), (new_at[j], new_at[j + 1]), out)
        else:
            _words(old_flat, new_flat, (old_at[i1], old_at[i2]), (new_at[j1], new_at[j2]), out)
    return out


def _offsets(units: list[list[str]]) -> list[int]:
    at = [0]
    for unit in units:
        at.append(at[-1] + len(unit))
    return at


def _words(old: list[str], new: list[str], a: tuple[int, int], b: tuple[int, int], out: list[Opcode]) -> None:
    """Word-level opcodes of old[a] against new[b], shifted to the whole texts, appended to `out`."""
    matcher = SequenceMatcher(None, old[a[0] : a[1]], new[b[0] : b[1]], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        _append(out, (op, a[0] + i1, a[0] + i2, b[0] + j1, b[0] + j2))


def _append(out: list[Opcode], code: Opcode) -> None:
    """Add an opcode, merged with the previous one when both are equal runs that touch."""
    if code[1] == code[2] and code[3] == code[4]:
        return
    if out and out[-1][0] == code[0] == "equal" and out[-1][2] == code[1] and out[-1][4] == code[3]:
        out[-1] = ("equal", out[-1][1], code[2], out[-1][3], code[4])
        return
    out.append(code)


def ratio_of(codes: list[Opcode], old_size: int, new_size: int) -> float:
    """How alike two texts are from their opcodes: twice the tokens in common over all tokens."""
    if not old_size and not new_size:
        return 1.0
    same = sum(a2 - a1 for op, a1, a2, _, _ in codes if op == "equal")
    return 2.0 * same / (old_size + new_size)


def word_diff(old: list[str], new: list[str], context: int = CONTEXT, codes: list[Opcode] | None = None) -> tuple[Segment, ...]:
    """The runs that differ between two token lists, with `context` unchanged tokens around each
    (an elided run shows as `…`); empty when they are equal. `codes` are their opcodes when known."""
    if old == new:
        return ()
    if codes is None:
        codes = [(op, a1, a2, b1, b2) for op, a1, a2, b1, b2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes()]
    segments: list[Segment] = []
    for number, (op, a1, a2, b1, b2) in enumerate(codes):
        if op == "equal":
            run = old[a1:a2]
            first, last = number == 0, number == len(codes) - 1
            if first and len(run) > context:
                run = ["…", *run[-context:]]
            elif last and len(run) > context:
                run = [*run[:context], "…"]
            elif len(run) > 2 * context + 1:
                run = [*run[:context], "…", *run[-context:]]
            segments.append(Segment("equal", _join(run)))
            continue
        if a2 > a1:
            segments.append(Segment("delete", _join(old[a1:a2])))
        if b2 > b1:
            segments.append(Segment("insert", _join(new[b1:b2])))
    return tuple(segments)


def _join(run: list[str]) -> str:
    """Tokens back into readable text: a space between words, none before closing punctuation."""
    text = ""
    for token in run:
        if text and not (token in ",.;:)]}%" or text.endswith(("(", "[", "{"))):
            text += " "
        text += token
    return text


# Words that say nothing of what a title is about, in the four languages.
_STOPWORDS = frozenset(
    [
        "a",
        "au",
        "aux",
        "d",
        "de",
        "des",
        "du",
        "en",
        "et",
        "l",
        "la",
        "le",
        "les",
        "par",
        "pour",
        "sur",
        "un",
        "une",
        "am",
        "an",
        "auf",
        "bei",
        "das",
        "dem",
        "den",
        "der",
        "des",
        "die",
        "ein",
        "eine",
        "fur",
        "im",
        "in",
        "mit",
        "und",
        "von",
        "vom",
        "zu",
        "zur",
        "al",
        "alla",
        "con",
        "dei",
        "del",
        "della",
        "delle",
        "di",
        "e",
        "gli",
        "i",
        "il",
        "nel",
        "per",
        "su",
        "and",
        "for",
        "in",
        "of",
        "on",
        "the",
        "to",
    ]
)


def _title_words(title: str) -> list[str]:
    """The words a title is about, crudely stemmed (a plural s/e/n dropped), so that `Coefficients
    de forme` meets `Coefficient de forme`."""
    found = [word for word in re.findall(r"[a-z0-9]+", fold(title)) if word not in _STOPWORDS]
    return [word[:-1] if len(word) > 4 and word[-1] in "sen" else word for word in found]


def _ratio(old: list[str], new: list[str]) -> float:
    if not old and not new:
        return 1.0
    if not old or not new:
        return 0.0
    matcher = SequenceMatcher(None, old, new, autojunk=False)
    if matcher.real_quick_ratio() < 0.2 or matcher.quick_ratio() < 0.2:
        return matcher.quick_ratio() * 0.5  # far apart: not worth the exact measure
    return matcher.ratio()


class _Lazy(dict):
    """Values computed on first use, by index: most clauses of two editions are the same text and
    never need their tokens."""

    def __init__(self, make) -> None:  # type: ignore[no-untyped-def]
        super().__init__()
        self.make = make

    def __missing__(self, index: int):  # type: ignore[no-untyped-def]
        value = self[index] = self.make(index)
        return value


class _Side:
    """One edition's clauses with what the comparison needs of each, computed once and only when needed."""

    def __init__(self, clauses: list[Clause]) -> None:
        self.clauses = clauses
        self.paragraphs: dict[int, list[list[str]]] = _Lazy(lambda i: paragraphs(clauses[i].text))
        self.tokens: dict[int, list[str]] = _Lazy(lambda i: [token for unit in self.paragraphs[i] for token in unit])
        self.titles = [_title_words(clause.title) for clause in clauses]
        self.folded: dict[int, str] = _Lazy(lambda i: fold(clauses[i].text))


_Codes = dict[tuple[int, int], list[Opcode]]


def _similarity(old: _Side, i: int, new: _Side, j: int, known: _Codes) -> tuple[float, float, float]:
    """(overall, title, text) similarity of old clause i and new clause j, each from 0 to 1; the
    opcodes measured are kept in `known` for the word diff."""
    title = _ratio(old.titles[i], new.titles[j])
    a, b = old.tokens[i], new.tokens[j]
    if not a and not b:
        return title, title, 1.0
    if not a or not b:
        return 0.4 * title, title, 0.0
    if (i, j) not in known:
        quick = SequenceMatcher(None, a, b, autojunk=False)
        if quick.real_quick_ratio() < 0.2 or quick.quick_ratio() < 0.2:
            text = quick.quick_ratio() * 0.5  # far apart: not worth the exact measure
            return 0.4 * title + 0.6 * text, title, text
        known[(i, j)] = opcodes(old.paragraphs[i], new.paragraphs[j])
    text = ratio_of(known[(i, j)], len(a), len(b))
    return 0.4 * title + 0.6 * text, title, text


def align(old: list[Clause], new: list[Clause], same_language: bool = True) -> list[Change]:
    """The changes from `old` to `new` (each in reading order), in the new edition's order.

    With `same_language` False the texts cannot be compared word for word: clauses are paired by
    path only, and a pair is `changed` when its values (numbers, formulas, numeric cells) differ.
    """
    left, right = _Side(old), _Side(new)
    known: _Codes = {}
    pairs: dict[int, tuple[int, str, float]] = {}  # new index → (old index, kind, similarity)
    by_path = {clause.path: i for i, clause in enumerate(old)}
    old_titles = {" ".join(words): i for i, words in enumerate(left.titles) if words}
    new_titles = {" ".join(words): j for j, words in enumerate(right.titles) if words}
    for j, clause in enumerate(new):
        i = by_path.get(clause.path)
        if i is None:
            continue
        if not same_language:
            values = _ratio([t for t in left.tokens[i] if is_value(t)], [t for t in right.tokens[j] if is_value(t)])
            pairs[j] = (i, "changed", values)
            continue
        if old[i].text == clause.text and old[i].title == clause.title:
            pairs[j] = (i, "changed", 1.0)  # the same clause: nothing to measure (and no change to report)
            continue
        overall, title, text = _similarity(left, i, right, j, known)
        if title < 1.0 and text < 0.5:
            # The old title now stands at another number (or the new one stood elsewhere): the
            # number was given to another clause, and the clause moved.
            elsewhere = new_titles.get(" ".join(left.titles[i]), j) != j or old_titles.get(" ".join(right.titles[j]), i) != i
            if elsewhere:
                continue
        contained = (
            bool(left.titles[i])
            and bool(right.titles[j])
            and (set(left.titles[i]) <= set(right.titles[j]) or set(right.titles[j]) <= set(left.titles[i]))
        )
        if overall >= PATH_PAIR_KEEPS or title >= 0.6 or contained or text >= 0.5:
            pairs[j] = (i, "changed", overall)
    if same_language:
        _pair_moved(left, right, pairs, known)
    changes = _changes(left, right, pairs, same_language, known)
    return changes


def _pair_moved(left: _Side, right: _Side, pairs: dict[int, tuple[int, str, float]], known: _Codes) -> None:
    """Pair the clauses left over on both sides by title and text: renumbered clauses.

    Candidates come from the words two clauses share (an inverted index of the old side's words,
    rarer words counting more), so that only a few pairs per clause are measured exactly."""
    taken = {i for i, _, _ in pairs.values()}
    lonely_old = [i for i in range(len(left.clauses)) if i not in taken]
    lonely_new = [j for j in range(len(right.clauses)) if j not in pairs]
    if not lonely_old or not lonely_new:
        return
    # A clause moved under its own title is found by the title alone; the words of the texts are
    # indexed only for the clauses left over.
    by_title: dict[str, list[int]] = {}
    for i in lonely_old:
        if left.titles[i]:
            by_title.setdefault(" ".join(left.titles[i]), []).append(i)
    scored: list[tuple[float, float, int, int]] = []  # (rank: a same title counts half again, similarity, old, new)
    rest = []
    for j in lonely_new:
        same = by_title.get(" ".join(right.titles[j]), []) if right.titles[j] else []
        if not same:
            rest.append(j)
            continue
        # A common title (`Généralités`) heads many clauses: the one with the very same text is the
        # clause itself; else the first few are measured.
        identical = [i for i in same if left.clauses[i].text == right.clauses[j].text]
        for i in identical[:1] or same[:8]:
            overall, title, text = _similarity(left, i, right, j, known)
            if len(left.titles[i]) >= 2 or text >= 0.15 or not left.tokens[i] or not right.tokens[j]:
                scored.append((overall + 0.5, overall, i, j))
    titled = {j for _, _, _, j in scored}
    rest += [j for j in lonely_new if j not in titled and j not in rest]
    postings: dict[str, list[int]] = {}
    for i in lonely_old if rest else []:
        for word in set(left.titles[i]) | set(re.findall(r"\w{3,}", left.folded[i])):
            postings.setdefault(word, []).append(i)
    for j in rest:
        shared: dict[int, float] = {}
        for word in set(right.titles[j]) | set(re.findall(r"\w{3,}", right.folded[j])):
            holders = postings.get(word, ())
            if 0 < len(holders) <= 50:
                for i in holders:
                    shared[i] = shared.get(i, 0.0) + 1.0 / len(holders)
        for i in sorted(shared, key=shared.__getitem__, reverse=True)[:4]:
            overall, title, text = _similarity(left, i, right, j, known)
            same_title = title == 1.0 and bool(left.titles[i])
            # A title of two words or more met again is the same clause, whatever became of its text.
            telling = same_title and (text >= 0.15 or len(left.titles[i]) >= 2 or not left.tokens[i] or not right.tokens[j])
            if telling or text >= RENUMBERED_AT:
                scored.append((overall + (0.5 if same_title else 0.0), overall, i, j))
    scored.sort(reverse=True)
    used: set[int] = set()
    for _, similarity, i, j in scored:
        if i in used or j in pairs:
            continue
        used.add(i)
        pairs[j] = (i, "renumbered", similarity)


def _changes(left: _Side, right: _Side, pairs: dict[int, tuple[int, str, float]], same_language: bool, known: _Codes) -> list[Change]:
    """Every difference, ordered as the new edition reads; a removed clause stands where it stood."""
    placed: list[tuple[tuple[int, int, int], Change]] = []
    paired_old = {i: j for j, (i, _, _) in pairs.items()}
    for j, clause in enumerate(right.clauses):
        if j not in pairs:
            placed.append(((j, 1, 0), Change("added", None, clause.path, clause.title, None, 0.0)))
            continue
        i, kind, similarity = pairs[j]
        before = left.clauses[i]
        if kind == "changed" and before.text == clause.text and before.title == clause.title:
            continue
        if same_language:
            if left.tokens[i] != right.tokens[j] and (i, j) not in known:
                known[(i, j)] = opcodes(left.paragraphs[i], right.paragraphs[j])
            diff = word_diff(left.tokens[i], right.tokens[j], codes=known.get((i, j)))
        else:
            diff = word_diff([t for t in left.tokens[i] if is_value(t)], [t for t in right.tokens[j] if is_value(t)])
        title_changed = same_language and fold(before.title).strip() != fold(clause.title).strip()
        if kind == "changed" and not diff and not title_changed:
            continue
        placed.append(((j, 1, 0), Change(kind, before.path, clause.path, clause.title, before.title, round(similarity, 2), diff)))
    # A removed clause goes just before the new position of the next old clause that was kept.
    next_kept = len(right.clauses)
    for i in range(len(left.clauses) - 1, -1, -1):
        if i in paired_old:
            next_kept = paired_old[i]
            continue
        clause = left.clauses[i]
        placed.append(((next_kept, 0, i), Change("removed", clause.path, None, clause.title, None, 0.0)))
    placed.sort(key=lambda item: item[0])
    return [change for _, change in placed]


def counts(changes: list[Change]) -> dict[str, int]:
    """How many changes of each kind, every kind named (zero included)."""
    found = Counter(change.kind for change in changes)
    return {kind: found.get(kind, 0) for kind in ("added", "removed", "renumbered", "changed")}
