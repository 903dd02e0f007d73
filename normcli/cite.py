"""References to a clause for reports: the bracket citation of SPEC §6, and BibTeX, CSL-JSON, RIS, text.

`[SIA 261:2020, 4.2.1, p. 17]` names the edition; a draft says so (`[SIA 261:2026 (draft), 4.2.1,
p. 7]`) and a document without printed pages cites no page. The long formats describe the norm
as a standard (CSL has no `standard` type before CSL 1.0.2, so CSL-JSON uses `report` with the
genre `Standard`, which every CSL 1.0.1 processor reads) and the clause as its section.
"""

from __future__ import annotations

import json
import re

from normcli.record import record

FORMATS = ("text", "bibtex", "csl-json", "ris")
# Who publishes the norms of a code prefix, where the prefix alone does not say it.
_PUBLISHERS = {"RFC": "IETF", "EN": "CEN", "PREN": "CEN", "SN": "SNV", "OENORM": "Austrian Standards", "ÖNORM": "Austrian Standards"}


@record
class Reference:
    """What a reference to one clause of one edition says."""

    code: str
    edition: str
    norm_title: str
    path: str
    clause_title: str
    page_start: int | None
    language: str
    draft: bool = False
    year: int | None = None

    @property
    def label(self) -> str:
        """`SIA 261:2020`, or `SIA 261:2026 (draft)`."""
        return f"{self.code}:{self.edition}" + (" (draft)" if self.draft else "")

    @property
    def publisher(self) -> str:
        """The body that publishes the norm, from its code's first word (`SIA`, `RFC` → IETF)."""
        prefix = self.code.split()[0] if self.code.split() else self.code
        return _PUBLISHERS.get(prefix.upper(), prefix)


def citation(code: str, edition: str, path: str, page_start: int | None, draft: bool = False) -> str:
    """The citation engineers write: `[SIA 261:2020, 4.2.1, p. 17]`, without a page when there is none
    (`render.citation` builds it, as for every answer)."""
    from normcli.render import citation as bracket

    return bracket(code, edition, path, page_start, published=not draft)


def format_reference(reference: Reference, style: str) -> str:
    """The reference in one of FORMATS, ending with a newline."""
    if style == "bibtex":
        return bibtex(reference)
    if style == "csl-json":
        return json.dumps(csl_json(reference), ensure_ascii=False, indent=2) + "\n"
    if style == "ris":
        return ris(reference)
    if style == "text":
        return text(reference)
    raise ValueError(f"unknown citation format {style!r}")


def text(reference: Reference) -> str:
    """A line for a report's list of references, then the bracket citation."""
    clause = (
        f"{reference.path} {reference.clause_title}"
        if reference.clause_title and reference.clause_title != reference.path
        else reference.path
    )
    page = f", p. {reference.page_start}" if reference.page_start is not None else ""
    head = f"{reference.label}. {reference.norm_title}. {reference.publisher}" + (f", {reference.year}" if reference.year else "")
    short = citation(reference.code, reference.edition, reference.path, reference.page_start, reference.draft)
    return f"{head}. {clause}{page}.\n{short}\n"


def key(reference: Reference) -> str:
    """A citation key of letters, digits and underscores: `SIA261_2020_4_2_1`."""
    raw = f"{reference.code}_{reference.edition}_{reference.path}"
    return re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9]+", "_", raw.replace(" ", ""))).strip("_")


_BIBTEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "&": r"\&",
    "%": r"\%",
    "#": r"\#",
    "_": r"\_",
    "$": r"\$",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def _bibtex_value(value: str) -> str:
    return "".join(_BIBTEX_SPECIAL.get(char, char) for char in value)


def bibtex(reference: Reference) -> str:
    """A `@techreport` entry (BibTeX has no type for standards): the norm's number and title, the
    clause and page in `note`, `pages` when printed."""
    clause = f"{reference.path} {reference.clause_title}".strip() if reference.clause_title != reference.path else reference.path
    fields = [
        ("title", f"{reference.norm_title}"),
        ("institution", reference.publisher),
        ("type", "Standard" + (" (draft)" if reference.draft else "")),
        ("number", f"{reference.code}:{reference.edition}"),
    ]
    if reference.year:
        fields.append(("year", str(reference.year)))
    fields.append(("note", f"Clause {clause}"))
    if reference.page_start is not None:
        fields.append(("pages", str(reference.page_start)))
    if reference.language:
        fields.append(("language", reference.language))
    body = ",\n".join(f"  {name} = {{{_bibtex_value(value)}}}" for name, value in fields)
    return f"@techreport{{{key(reference)},\n{body}\n}}\n"


def csl_json(reference: Reference) -> list[dict]:
    """The reference as CSL-JSON: a list of one item."""
    item: dict = {
        "id": key(reference),
        "type": "report",
        "genre": "Standard",
        "title": reference.norm_title,
        "number": f"{reference.code}:{reference.edition}",
        "publisher": reference.publisher,
        "authority": reference.publisher,
        "section": f"{reference.path} {reference.clause_title}".strip() if reference.clause_title != reference.path else reference.path,
        "language": reference.language,
    }
    if reference.year:
        item["issued"] = {"date-parts": [[reference.year]]}
    if reference.page_start is not None:
        item["page"] = str(reference.page_start)
    if reference.draft:
        item["status"] = "draft"
    return [item]


def ris(reference: Reference) -> str:
    """The reference as RIS tagged lines (`TY  - STAND` … `ER  - `)."""
    clause = f"{reference.path} {reference.clause_title}".strip() if reference.clause_title != reference.path else reference.path
    lines = [("TY", "STAND"), ("ID", key(reference)), ("TI", reference.norm_title), ("PB", reference.publisher)]
    lines.append(("M1", f"{reference.code}:{reference.edition}"))
    if reference.year:
        lines.append(("PY", str(reference.year)))
    lines.append(("SE", clause))
    if reference.page_start is not None:
        lines.append(("SP", str(reference.page_start)))
    if reference.language:
        lines.append(("LA", reference.language))
    if reference.draft:
        lines.append(("N1", "Draft"))
    lines.append(("ER", ""))
    return "".join(
        f"{tag}  - {' '.join(value.split())}".rstrip() + " \n" if tag == "ER" else f"{tag}  - {' '.join(value.split())}\n"
        for tag, value in lines
    )
