"""Read a `norm.md` bundle (SPEC §2) into the model: front matter, clause tree, pages and parts.

Parsing never raises on bad content: every problem becomes a `Problem` with file, line and
reason, and only a bundle that cannot say which norm it is (no code) is left unreadable.
"""

from __future__ import annotations

import bisect
import itertools
import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

from normcli.fold import path_key
from normcli.labels import ANNEX_HEADING_LABEL, FIGURE_LABEL, TABLE_LABEL
from normcli.latex import shape_problem
from normcli.model import Bundle, Figure, Formula, Node, Problem, Table
from normcli.workspace import LANGUAGES, language_of
from normcli.xrefs import find_references

_HEADING = re.compile(r"^ {0,3}(?P<hashes>#{1,6})[ \t]+(?P<text>.+?)(?:[ \t]+#+)?[ \t]*$")
# Markdown's own syntax, one definition for the bundle and the Markdown importer: a code fence's opening or closing
# line, and an image `![alt](src "title")`
CODE_FENCE = re.compile(r"^ {0,3}(?:```|~~~)")
_PAGE = re.compile(r"^\s*<!--\s*page\s+(?P<page>[^\s>]+)[^>]*-->\s*$", re.I)
_NUMBERED = re.compile(r"^(?P<path>\d+(?:\.\d+)*)\.?(?:[ \t]+(?P<title>.*))?$")
_ANNEX = re.compile(
    rf"^(?P<path>{ANNEX_HEADING_LABEL}[ \t]+(?:[A-Z]|\d+))\b\.?"
    r"(?:[ \t]*[:–—\-.]?[ \t]*(?P<title>.*))?$"
)
_ANNEX_CLAUSE = re.compile(r"^(?P<path>[A-Z](?:\.\d+)+)\.?(?:[ \t]+(?P<title>.*))?$")
# an annex printed as its letter alone before its title, without a word for it (`A Implementation`)
_LETTER_LED = re.compile(r"^(?P<path>[A-Z])[ \t]+(?P<title>[^\W\d_].*)$")
IMAGE = re.compile(r"!\[(?P<alt>[^\]\n]*)\]\(\s*<?(?P<src>[^)\s>]+)>?(?P<title>\s+\"[^\"]*\")?\s*\)")
_FIGURE_LABEL = re.compile(
    rf"^{FIGURE_LABEL}\s*(?P<num>(?:[A-Z][.\-]?)?\d+(?:[.\-]\d+)*[a-z]?)"  # 3, 2.1, A1, A.1 (an annex's)
    r"\s*[–—:\-.]?\s*(?P<caption>.*)$"
)
_TABLE_CAPTION = re.compile(rf"^\**{TABLE_LABEL}\s*(?P<num>(?:[A-Z][.\-]?)?\d+(?:[.\-]\d+)*)\**\s*[–—:\-.]?\s*(?P<caption>.*)$")
_TABLE_RULE = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$")
_FORMULA_NUMBER = re.compile(r"(?:\\qquad|\\quad)?\s*(?:\((?P<num>[A-Z]?\d+(?:\.\d+)*[a-z]?)\)|\\tag\{(?P<tag>[^}]+)\})\s*$")
_SCALAR_TRUE = {"true", "yes", "on", "1"}
_SCALAR_FALSE = {"false", "no", "off", "0"}
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # C0 but tab and line ends, DEL, C1


def _scalar(raw: str) -> str | list[str]:
    value = raw.strip()
    if value.startswith("[") and value.endswith("]"):
        return [item.strip().strip("\"'") for item in value[1:-1].split(",") if item.strip()]
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value.split(" #", 1)[0].strip()


class _Reader:
    """One pass over a bundle's lines; collects nodes, parts and problems."""

    def __init__(self, file: Path, shown_name: str) -> None:
        self.file = file
        self.name = shown_name
        self.problems: list[Problem] = []
        self.field_lines: dict[str, int] = {}
        self.page_at: dict[int, int | None] = {}  # body line number → the page it is printed on

    def problem(self, line: int, severity: str, kind: str, reason: str) -> None:
        self.problems.append(Problem(self.name, line, severity, kind, reason))

    def front_matter(self, lines: list[str]) -> tuple[dict[str, object], int]:
        """The front matter's fields and the index of the first body line."""
        if not lines or lines[0].strip() != "---":
            self.problem(1, "error", "front_matter", "no front matter: the file must start with a '---' line")
            return {}, 0
        fields: dict[str, object] = {}
        last_key = None
        for index in range(1, len(lines)):
            line = lines[index]
            if line.strip() == "---":
                return fields, index + 1
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            if line.lstrip().startswith("- ") and last_key:
                current = fields.get(last_key)
                items = current if isinstance(current, list) else []
                items.append(str(_scalar(line.lstrip()[2:])))
                fields[last_key] = items
                continue
            key, sep, value = line.partition(":")
            if not sep or not key.strip().isidentifier():
                self.problem(index + 1, "warning", "front_matter", f"front matter line is not 'key: value': {line.strip()[:60]}")
                continue
            last_key = key.strip()
            self.field_lines[last_key] = index + 1
            fields[last_key] = _scalar(value) if value.strip() else []
        self.problem(1, "error", "front_matter", "front matter is not closed by a '---' line")
        return {}, 0

    def flag(self, fields: dict[str, object], key: str, default: bool, line: int) -> bool:
        value = fields.get(key)
        if value is None or value == []:
            return default
        text = str(value).strip().lower()
        if text in _SCALAR_TRUE:
            return True
        if text in _SCALAR_FALSE:
            return False
        self.problem(
            self.field_lines.get(key, line),
            "warning",
            "front_matter",
            f"'{key}: {value}' is not true or false; read as {str(default).lower()}",
        )
        return default


_EXPLICIT_PATH = re.compile(r"[ \t]*\{#(?P<path>[^{}]+)\}[ \t]*$")


def _heading_path(text: str, level: int, lettered: bool = False) -> tuple[str, str, int]:
    """A heading's path, title and depth as SPEC §2 defines them; a trailing `{#path}` names the path
    explicitly (a language version's `## Préface {#Preface}` is the same clause as `## Preface`). `lettered`:
    the heading is an annex led by its letter alone (`A Implementation`, see `_lettered_annexes`), path `A`."""
    explicit = _EXPLICIT_PATH.search(text)
    if lettered and not explicit and (match := _LETTER_LED.match(text)):
        return match.group("path"), match.group("title").strip(), 1
    if explicit and text[: explicit.start()].strip():
        printed, title, depth = _heading_path(text[: explicit.start()], level)
        path = explicit.group("path").strip()
        if path.endswith("." + printed) and _NUMBERED.match(printed):
            depth += path[: -len(printed) - 1].count(".") + 1  # `## 1 History {#II.1}`: clause 1 of part II, one level down
        return path, title, depth
    for pattern in (_NUMBERED, _ANNEX, _ANNEX_CLAUSE):
        match = pattern.match(text)
        if match:
            path = match.group("path")
            title = (match.group("title") or "").strip() or path
            if pattern is _ANNEX:
                return path, title, 1
            return path, title, path.count(".") + 1
    return text.rstrip(" :."), text, level


def letter_run(led: list[tuple[int, str]]) -> list[int]:
    """Of the items (key, capital letter) in reading order, the keys whose letters run A, B, C … : each letter in
    turn from A, a letter out of the sequence breaking nothing. The run lettered annexes make, in a bundle's headings
    as on a PDF's pages."""
    kept: list[int] = []
    for key, letter in led:
        if ord(letter) == ord("A") + len(kept):
            kept.append(key)
    return kept


def _lettered_annexes(headings: list[tuple[int, int, str]]) -> set[int]:
    """The headings (line number, level, text) that are annexes printed as their letter alone before the title, as
    LaTeX's appendices are (`# A Implementation`, `# B Test`): among the headings of one level led by a capital
    letter and a space, those whose letters run A, B, C … in order, two at least, or `A` alone when a clause `A.1`
    follows it. A lone `A Note on units` stays an unnumbered title, as SPEC §2 reads a heading without a number."""
    led = [(line, level, match.group("path")) for line, level, text in headings if (match := _LETTER_LED.match(text))]
    annex_clauses = [(line, match.group("path")) for line, _, text in headings if (match := _ANNEX_CLAUSE.match(text))]
    found: set[int] = set()
    for level in {level for _, level, _ in led}:
        kept = letter_run([(line, letter) for line, at, letter in led if at == level])
        if len(kept) == 1 and not any(line > kept[0] and path.split(".")[:2] == ["A", "1"] for line, path in annex_clauses):
            kept = []
        found.update(kept)
    return found


def parse_bundle(file: Path, shown_name: str | None = None, known_codes: tuple[str, ...] = ()) -> Bundle:
    """Parse one bundle file; its problems are kept on the returned bundle. `known_codes` (the norms
    of the workspace) are recognised as references whatever their publisher, as are its `requires`.

    Raises `UnreadableBundle`, carrying the problems, when the file does not say which norm it is.
    """
    reader = _Reader(file, shown_name or str(file))
    workspace = _workspace_of(file)
    if workspace is not None and not file.resolve().is_relative_to(workspace.resolve()):
        reader.problem(1, "error", "outside", "the bundle is a symlink to a file outside the workspace; it is not read")
        raise UnreadableBundle(reader.problems)
    raw = file.read_bytes()
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        reader.problem(line, "warning", "encoding", f"invalid UTF-8 at byte {exc.start}; bad bytes shown as U+FFFD")
        text = raw.decode("utf-8", errors="replace")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    control = _CONTROL.search(text)
    if control:  # escape sequences in a bundle must never reach a reader's terminal
        line = text.count("\n", 0, control.start()) + 1
        reader.problem(line, "warning", "encoding", f"control characters (first U+{ord(control.group()):04X}) are removed from the text")
        text = _CONTROL.sub("", text)
    lines = text.split("\n")
    fields, body_start = reader.front_matter(lines)
    code = str(fields.get("code") or "").strip()
    if not code:
        if not any(problem.severity == "error" for problem in reader.problems):  # an empty front matter too
            reader.problem(reader.field_lines.get("code", 1), "error", "front_matter", "front matter has no 'code' (e.g. code: SIA 261)")
        raise UnreadableBundle(reader.problems)
    edition = str(fields.get("edition") or "").strip()
    if not edition:
        edition = file.parent.name
        reader.problem(1, "warning", "front_matter", f"front matter has no 'edition'; the folder name '{edition}' is used")
    file_language = language_of(file)
    language = str(fields.get("language") or file_language or "").strip().lower()
    language_line = reader.field_lines.get("language", 1)
    if file_language and language != file_language:
        reader.problem(
            language_line, "warning", "front_matter", f"language '{language}' differs from the file name; '{file_language}' is used"
        )
        language = file_language
    if language not in LANGUAGES:
        reader.problem(
            language_line,
            "warning",
            "front_matter",
            f"language '{language}' is not one of {', '.join(LANGUAGES)}; 'en' is assumed"
            if language
            else f"no language in the front matter (one of {', '.join(LANGUAGES)}); 'en' is assumed",
        )
        language = "en"
    requires = fields.get("requires") or []
    bundle = Bundle(
        file=file,
        code=code,
        edition=edition,
        language=language,
        title=str(fields.get("title") or code),
        scope=str(fields.get("scope") or ""),
        published=reader.flag(fields, "published", True, 1),
        demo=reader.flag(fields, "demo", False, 1),
        requires=[str(item) for item in (requires if isinstance(requires, list) else [requires])],
    )
    _read_body(bundle, reader, lines, body_start, (*known_codes, *bundle.requires))
    bundle.problems = reader.problems
    return bundle


def _workspace_of(file: Path) -> Path | None:
    """The workspace of a bundle laid out as SPEC §2 says (`<workspace>/norms/<slug>/<edition>/norm.md`), else None."""
    parents = file.absolute().parents
    return parents[3] if len(parents) > 3 and parents[2].name == "norms" else None


class UnreadableBundle(Exception):
    """A bundle that cannot be indexed at all; carries the problems that say why."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(problems[0].reason if problems else "unreadable bundle")
        self.problems = problems


def _read_body(bundle: Bundle, reader: _Reader, lines: list[str], start: int, known_codes: tuple[str, ...]) -> None:
    page = 1
    paginated = False  # a bundle without page markers has no pages: it is cited without one
    nodes: list[Node] = []
    own_lines: list[list[tuple[int, str]]] = []
    seen: dict[str, int] = {}
    stack: list[Node] = []
    preamble: list[tuple[int, str]] = []
    last_content_page: list[int] = []
    marks = _marks(lines, start)
    lettered = _lettered_annexes(
        [(index, len(mark.group("hashes")), mark.group("text").strip()) for index, mark in marks.items() if mark.re is _HEADING]
    )
    for index in range(start, len(lines)):
        line = lines[index]
        number = index + 1
        mark = marks.get(index)
        if mark is not None and mark.re is _PAGE:
            value = mark.group("page")
            if value.isdigit():
                page, paginated = int(value), True
            else:
                reader.problem(number, "warning", "page", f"page marker '{value}' is not a number; ignored")
            continue
        if mark is not None:
            path, title, depth = _heading_path(mark.group("text").strip(), len(mark.group("hashes")), index in lettered)
            key = path_key(path)
            if key in seen:
                reader.problem(
                    number,
                    "warning",
                    "duplicate_path",
                    f"duplicate path '{path}' (first at line {seen[key]}); this one is read as '{path} ({number})'",
                )
                path = f"{path} ({number})"
                key = path_key(path)
            seen[key] = number
            while stack and stack[-1].depth >= depth:
                stack.pop()
            node = Node(path=path, title=title, depth=depth, line=number, page_start=page, page_end=page)
            if stack:
                node.parent_path = stack[-1].path
                stack[-1].children.append(path)
            stack.append(node)
            nodes.append(node)
            own_lines.append([])
            last_content_page.append(page)
            continue
        if nodes:
            own_lines[-1].append((number, line))
            reader.page_at[number] = page
            if line.strip():
                last_content_page[-1] = page
        elif line.strip():
            preamble.append((number, line))
    if preamble:
        reader.problem(
            preamble[0][0], "warning", "preamble", "text before the first heading is not part of any clause; add a heading above it"
        )
    if not nodes:
        reader.problem(start + 1, "warning", "empty", "the bundle has no headings, so no clauses")
    by_path = {node.path: node for node in nodes}
    for node, own, end_page in zip(nodes, own_lines, last_content_page, strict=True):
        node.text = "\n".join(line for _, line in own).strip("\n")
        node.page_end = max(node.page_start or 0, end_page)
    for node in reversed(nodes):
        if node.parent_path is not None:
            parent = by_path[node.parent_path]
            parent.page_end = max(parent.page_end or 0, node.page_end or 0)
    if not paginated:
        for node in nodes:
            node.page_start = node.page_end = None
        reader.page_at = {}
    bundle.nodes = nodes
    keys = set(seen)
    for node, own in zip(nodes, own_lines, strict=True):
        _read_parts(bundle, reader, node, own)
    tables = {table.number for table in bundle.tables if table.number}
    for node, own in zip(nodes, own_lines, strict=True):
        # Where each own line starts in the text (page markers are not among them, so lines are not
        # consecutive): a reference's line is that of the text line it stands in.
        joined = "\n".join(line for _, line in own)
        lead = len(joined) - len(joined.lstrip("\n"))  # the blank lines the clause's text starts without
        starts = list(itertools.accumulate((len(line) + 1 for _, line in own[:-1]), initial=0))
        part = _part_of(node.path)
        for ref in find_references(node.text, _holds(part, keys), tables.__contains__, known_codes):
            if ref.target_code is None and ref.target_kind == "clause" and ref.target_path:
                ref.target_path = _in_part(ref.target_path, part, keys) or ref.target_path
            ref.node_path = node.path
            ref.line = own[bisect.bisect_right(starts, ref.position + lead) - 1][0] if own else node.line
            bundle.xrefs.append(ref)
    _check_numbering(bundle, reader)


def _marks(lines: list[str], start: int) -> dict[int, re.Match[str]]:
    """The page markers (`_PAGE`) and headings (`_HEADING`) of a bundle's body by line index: lines outside code
    fences and `$$` blocks, where a `#` or a comment is text."""
    marks: dict[int, re.Match[str]] = {}
    in_fence = False
    in_math = False
    for index in range(start, len(lines)):
        line = lines[index]
        page_match = None if in_fence or in_math else _PAGE.match(line)
        if page_match:
            marks[index] = page_match
            continue
        if CODE_FENCE.match(line) and not in_math:
            in_fence = not in_fence
        elif not in_fence and line.strip().startswith("$$"):
            stripped = line.strip()
            if not (stripped.count("$$") >= 2 and len(stripped) > 2):
                in_math = not in_math
        elif in_math and line.strip().endswith("$$"):
            in_math = False
        heading = None if in_fence or in_math else _HEADING.match(line)
        if heading:
            marks[index] = heading
    return marks


def _part_of(path: str) -> str | None:
    """The part a clause sits in when the norm numbers its clauses again in each part (`II` for
    `II.3.1`, as the importer qualifies them under `Part II`): a first component that is no number.
    An annex (`A.2`) is read the same way, which only matters where the norm lacks the plain number."""
    head = path.split(".", 1)[0]
    if head == path or head.isdecimal():
        return None
    return head


def _in_part(path: str, part: str | None, keys: set[str]) -> str | None:
    """The clause `path` names, read as the text around it would: itself when the norm has it, else,
    inside a part that numbers again (`Section 5` written in Part II), the part's own `II.5`."""
    if path_key(path) in keys:
        return path
    if part is not None and path_key(f"{part}.{path}") in keys:
        return f"{part}.{path}"
    return None


def _holds(part: str | None, keys: set[str]) -> Callable[[str], bool]:
    """Whether the norm holds the clause a path names, read from inside `part` (see `_in_part`)."""
    return lambda path: _in_part(path, part, keys) is not None


def _read_parts(bundle: Bundle, reader: _Reader, node: Node, own: list[tuple[int, str]]) -> None:
    figure_ids = {figure.id for figure in bundle.figures}
    index = 0
    while index < len(own):
        number, line = own[index]
        for image in IMAGE.finditer(line):
            figure = _figure(bundle, reader, node, number, image.group("alt"), image.group("src"))
            if figure.id in figure_ids:
                reader.problem(
                    number, "warning", "duplicate_figure", f"figure id '{figure.id}' is used twice; this one is '{figure.id}-{number}'"
                )
                figure.id = f"{figure.id}-{number}"
            figure_ids.add(figure.id)
            bundle.figures.append(figure)
        stripped = line.strip()
        if stripped.startswith("|") and index + 1 < len(own) and _TABLE_RULE.match(own[index + 1][1].strip()):
            end = index
            while end < len(own) and own[end][1].strip().startswith("|"):
                end += 1
            caption_line = next((text.strip() for _, text in reversed(own[max(0, index - 2) : index]) if text.strip()), "")
            caption = _TABLE_CAPTION.match(caption_line)
            ordinal = len(bundle.tables) + 1
            table_number = caption.group("num") if caption else None
            bundle.tables.append(
                Table(
                    id=f"tab-{table_number.lower()}" if table_number else f"tab-u{ordinal}",
                    number=table_number,
                    caption=caption_line if caption else "",
                    markdown="\n".join(text for _, text in own[index:end]),
                    node_path=node.path,
                    page=reader.page_at.get(number),
                )
            )
            index = end
            continue
        if stripped.startswith("$$"):
            end = index
            body = stripped[2:]
            while not (body.rstrip().endswith("$$") or "$$" in body) and end + 1 < len(own):
                end += 1
                body += "\n" + own[end][1].strip()
            latex, _, after = body.partition("$$")
            latex = latex.rstrip()
            number_match = _FORMULA_NUMBER.search(latex)
            if number_match:
                latex = latex[: number_match.start()]
            else:
                number_match = _FORMULA_NUMBER.search(after)
            formula_number = (number_match.group("num") or number_match.group("tag")) if number_match else None
            bundle.formulas.append(Formula(formula_number, latex.strip(), node.path))
            malformed = shape_problem(latex)
            if malformed:
                reader.problem(
                    own[index][0], "warning", "malformed_formula", f"formula {formula_number or ''} is shown as its source: {malformed}"
                )
            index = end + 1
            continue
        index += 1


def _figure(bundle: Bundle, reader: _Reader, node: Node, line: int, alt: str, src: str) -> Figure:
    label = _FIGURE_LABEL.match(alt.strip())
    number = label.group("num") if label else None
    caption = alt.strip()
    fig_id = f"fig-{number.lower()}" if number else f"img-{Path(src).stem.lower()}"
    folder = bundle.folder.resolve()
    reason = None
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.\-]*:", src):
        reason = f"figure link '{src}' is a URL; only files inside the bundle folder are served"
    elif src.startswith(("/", "\\")) or re.match(r"^[a-zA-Z]:", src):
        reason = f"figure link '{src}' is an absolute path; use a path relative to the bundle folder"
    else:
        target = (folder / src).resolve()
        if not target.is_relative_to(folder):
            reason = f"figure link '{src}' points outside the bundle folder; it will not be served"
        elif not target.is_file():
            reason = f"figure file '{src}' is missing"
    if reason:
        reader.problem(line, "warning", "figure", reason)
    return Figure(fig_id, number, caption, None if reason else src, node.path, line)


def _check_numbering(bundle: Bundle, reader: _Reader) -> None:
    """Warn where sibling clause numbers skip (4.1 then 4.3) or go back (3 then 2), and where a
    numbered subclause has no clause above it (4.2 before 4)."""
    siblings: dict[tuple[str | None, int], list[Node]] = {}
    for node in bundle.nodes:
        siblings.setdefault((node.parent_path, node.depth), []).append(node)
        if node.parent_path is None and node.depth > 1 and re.fullmatch(r"\d+(?:\.\d+)+", node.path):
            parent = node.path.rsplit(".", 1)[0]
            reader.problem(
                node.line, "warning", "heading_order", f"'{node.path}' comes before its clause '{parent}'; move it below that heading"
            )
    for children in siblings.values():
        previous, previous_path = None, ""
        for node in children:
            if not re.fullmatch(r"(?:\d+\.)*\d{1,9}", node.path):
                continue
            last = int(node.path.rsplit(".", 1)[-1])
            if previous is not None and last <= previous:
                reader.problem(node.line, "warning", "heading_order", f"headings out of order: '{node.path}' follows '{previous_path}'")
            elif previous is not None and last > previous + 1:
                reader.problem(node.line, "warning", "numbering_gap", f"numbering gap: '{node.path}' follows number {previous}")
            previous, previous_path = last, node.path


def summary_of(text: str, limit: int = 160) -> str:
    """A one-line summary of a clause: its first sentence of plain text, cut at `limit`."""
    plain_lines: list[str] = []
    for line in text.split("\n"):
        stripped = line.strip()
        if not stripped or stripped.startswith(("|", "$$", "![", "<!--", "```")):
            if plain_lines:
                break
            continue
        plain_lines.append(stripped)
    # Emphasis marks go, but not inside inline formulas: `$s_k$` keeps its subscript.
    pieces = re.split(r"(\$[^$\n]+\$)", " ".join(plain_lines))
    plain = "".join(piece if number % 2 else re.sub(r"[*_`#>]+", "", piece) for number, piece in enumerate(pieces))
    plain = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", plain)
    sentence = re.split(r"(?<=[.;:!?])\s", plain, maxsplit=1)[0]
    return sentence if len(sentence) <= limit else sentence[: limit - 1].rsplit(" ", 1)[0] + "…"
