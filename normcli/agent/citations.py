"""Citation checks for `normcli ask`: every `[CODE:EDITION, path, p. N]` of a draft must name a section read
in this turn, with that page in the section's range (SPEC §6's citation form)."""

from __future__ import annotations

import re

from normcli.fold import code_key, path_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

# A bracketed group that is not a Markdown link target; one group may hold several citations split by ";".
# One level of brackets inside is allowed: an unnumbered heading's path is its title, which may hold some
# (`[DOC 11:1, [2005/02/23 v2.0], p. 46]` is the citation its section answer carries).
_BRACKETS = re.compile(r"\[((?:[^\[\]\n]|\[[^\[\]\n]*\]){3,400})\](?!\()")
_FLAT_BRACKETS = re.compile(r"\[([^\[\]\n]{3,400})\](?!\()")
_PAGES = re.compile(r"^(?:pp?\.|pages?|S\.|Seiten?)\s*(\d+)(?:\s*[–—-]\s*(\d+))?$", re.IGNORECASE)
_CODE = re.compile(r"^(?P<code>[^:\[\]]*?[A-Za-z][^:\[\]]*?)(?::\s*(?P<edition>[\w.\-]+))?\s*(?P<draft>\((?:draft|projet|Entwurf)\))?$")


class SectionRead:
    """A clause read with `get_section` in this turn: what a citation may name."""

    __slots__ = ("code", "edition", "page_end", "page_start", "path", "requested_path")

    def __init__(self, code: str, edition: str, path: str, page_start: int | None, page_end: int | None, requested_path: str | None = None):
        self.code = code
        self.edition = edition
        self.path = path
        self.page_start = page_start
        self.page_end = page_end
        self.requested_path = requested_path

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SectionRead:
        """From a `get_section` answer (`{section: {...}}`, SPEC §3)."""
        section = data.get("section", data)
        return cls(
            section["code"],
            section["edition"],
            section["path"],
            section.get("pageStart"),
            section.get("pageEnd"),
            section.get("requestedPath"),
        )

    def pages(self) -> str:
        """The page range as a person writes it, or '' for a document without printed pages."""
        if self.page_start is None:
            return ""
        return f"p. {self.page_start}" if self.page_end in (None, self.page_start) else f"pp. {self.page_start}–{self.page_end}"


class Citation:
    """One citation found in a draft, and what its check found: `ok`, or the `reason` it failed."""

    __slots__ = ("code", "edition", "ok", "page_end", "page_start", "path", "reason", "section", "text")

    def __init__(self, text: str, code: str, edition: str | None, path: str, page_start: int | None, page_end: int | None) -> None:
        self.text = text
        self.code = code
        self.edition = edition
        self.path = path
        self.page_start = page_start
        self.page_end = page_end
        self.ok = False
        self.reason = "not checked"
        self.section: SectionRead | None = None

    def command(self) -> str:
        """The `normcli section` command that opens the cited clause."""
        code = self.section.code if self.section else self.code
        edition = self.section.edition if self.section else self.edition
        path = self.section.path if self.section else self.path
        target = f"{code}:{edition}" if edition else code
        return f"normcli section {_quote(target)} {_quote(path)}"

    def to_json(self) -> dict[str, Any]:
        """`{text, code, edition, path, page, verified, reason?, command}`."""
        data: dict[str, Any] = {
            "text": self.text,
            "code": self.section.code if self.section else self.code,
            "edition": self.section.edition if self.section else self.edition,
            "path": self.section.path if self.section else self.path,
            "page": self.page_start,
            "verified": self.ok,
            "command": self.command(),
        }
        if not self.ok:
            data["reason"] = self.reason
        return data


def _quote(word: str) -> str:
    return word if re.fullmatch(r"[\w.:\-]+", word) else '"' + word.replace('"', '\\"') + '"'


def find_citations(text: str) -> list[Citation]:
    """The citations of `text`: bracketed `CODE[:EDITION][ (draft)], path[, p. N]` with an edition or a page.

    A bracket with neither (`[1]`, `[see above]`) is not a citation; a Markdown link text is skipped.
    """
    found: list[Citation] = []
    for match in _BRACKETS.finditer(text):
        inner = match.group(1)
        parsed = [citation for part in inner.split(";") if (citation := _parse(part.strip())) is not None]
        if not parsed and "[" in inner:  # `[see [SIA 261:2020, 4.2.1, p. 17]]`: the citations are the inner brackets
            parsed = [
                citation
                for flat in _FLAT_BRACKETS.finditer(inner)
                for part in flat.group(1).split(";")
                if (citation := _parse(part.strip())) is not None
            ]
        found.extend(parsed)
    return found


def _parse(inner: str) -> Citation | None:
    pieces = [piece.strip() for piece in inner.split(",")]
    if len(pieces) < 2 or not all(pieces):
        return None
    pages = _PAGES.match(pieces[-1])
    if pages:
        pieces = pieces[:-1]
    if len(pieces) < 2:
        return None
    head = _CODE.match(pieces[0])
    if head is None or not (pages or head.group("edition")):
        return None
    if not re.search(r"\d", head.group("code")) and not head.group("edition"):
        return None  # a code names a numbered document (SIA 261, RFC 9110); "[Note, see, p. 3]" is prose
    start = int(pages.group(1)) if pages else None
    end = int(pages.group(2)) if pages and pages.group(2) else start
    return Citation(f"[{inner}]", head.group("code").strip(), head.group("edition"), ", ".join(pieces[1:]), start, end)


def check_citations(citations: Iterable[Citation], reads: list[SectionRead]) -> list[Citation]:
    """Check each citation against the sections read: same code, edition (when given), path, and pages within range."""
    checked = list(citations)
    for citation in checked:
        _check(citation, reads)
    return checked


def _check(citation: Citation, reads: list[SectionRead]) -> None:
    code = code_key(citation.code)
    same_code = [read for read in reads if code_key(read.code) == code]
    if not same_code:
        citation.reason = f"no section of {citation.code} was read with get_section in this turn"
        return
    if citation.edition is not None:
        same_edition = [read for read in same_code if read.edition.lower() == citation.edition.lower()]
        if not same_edition:
            editions = ", ".join(sorted({read.edition for read in same_code}))
            citation.reason = f"{citation.code}:{citation.edition} was not read; the sections read are of edition {editions}"
            return
    else:
        same_edition = same_code
        if len({read.edition for read in same_code}) > 1:
            citation.reason = f"name the edition: sections of {citation.code} were read in several editions"
            return
    path = path_key(citation.path)
    matching = [read for read in same_edition if path in (path_key(read.path), path_key(read.requested_path or read.path))]
    if not matching:
        read_paths = ", ".join(sorted({read.path for read in same_edition}))
        citation.reason = f"{citation.code} {citation.path} was not read with get_section in this turn (read: {read_paths})"
        return
    section = matching[0]
    citation.section = section
    if section.page_start is None:
        if citation.page_start is not None:
            citation.reason = f"{section.code} has no printed pages: cite {section.path} without a page"
            return
    elif citation.page_start is None:
        citation.reason = f"give the page: {section.path} is on {section.pages()}"
        return
    else:
        end = section.page_end if section.page_end is not None else section.page_start
        if not (section.page_start <= citation.page_start <= end and section.page_start <= (citation.page_end or 0) <= end):
            citation.reason = f"{section.path} is on {section.pages()}, not p. {citation.page_start}" + (
                f"–{citation.page_end}" if citation.page_end != citation.page_start else ""
            )
            return
    citation.ok = True
    citation.reason = ""


def verify_draft(draft: str, reads: list[SectionRead]) -> dict[str, Any]:
    """The `verify_citations` answer: `{verified, citations: [...], problems}`; verified only when every citation passes."""
    citations = check_citations(find_citations(draft), reads)
    failed = [citation for citation in citations if not citation.ok]
    answer: dict[str, Any] = {
        "verified": not failed,
        "citations": [citation.to_json() for citation in citations],
        "problems": [f"{citation.text}: {citation.reason}" for citation in failed],
    }
    if not citations:
        answer["note"] = "the draft cites nothing: every technical claim needs a citation [CODE:EDITION, path, p. N] of a section you read"
    return answer
