"""RFCXML (v2/v3, with the `x:` extensions of the HTTP WG's sources) into a draft.

Clause numbers are not written in RFCXML: they follow from `<section>` nesting (`<middle>` gives
1, 1.1 …, `<back>` gives Appendix A, A.1 …; `numbered="false"` sections are titled only). Cross
references by anchor become the clause path (`Section 4.2.1`) or the citation tag (`[URI]`).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from normcli.importers.common import Draft, UniqueTitles, ascii_figure_svg, clean_inline, figure_name, heading_line, safe_text_line

_X = "{http://purl.org/net/xml2rfc/ext}"
_BLOCKS = {"t", "artwork", "sourcecode", "figure", "table", "texttable", "ul", "ol", "dl", "list", "blockquote", "aside", "note"}


def import_rfcxml(source: Path) -> Draft:
    """Read an RFCXML file; an unreadable XML file is imported as plain text instead."""
    try:
        root = ET.parse(source).getroot()
    except ET.ParseError as exc:
        from normcli.importers.text import import_text

        draft = import_text(source)
        draft.warnings.insert(0, f"not well-formed XML ({exc}); imported as plain text")
        return draft
    if root.tag != "rfc":
        from normcli.importers.text import import_text

        draft = import_text(source)
        draft.warnings.insert(0, f"<{root.tag}> is not RFCXML; imported as plain text")
        return draft
    draft = Draft()
    front = root.find("front")
    title = front.find("title") if front is not None else None
    draft.title = clean_inline("".join(title.itertext())) if title is not None else source.stem
    number = root.get("number")
    if number:
        draft.title = f"{draft.title} (RFC {number})"
    paths = _number_sections(root)
    references = {str(ref.get("anchor")): ref for ref in root.iter("reference") if ref.get("anchor")}
    writer = _Writer(draft, paths, references)
    for section in root.iter("section"):
        anchor = section.get("anchor")
        if anchor and id(section) in paths:
            writer.anchors[anchor] = paths[id(section)]
    if front is not None:
        abstract = front.find("abstract")
        if abstract is not None:
            draft.body.append(heading_line(None, "Abstract", 1))
            draft.body.append("")
            writer.blocks(abstract)
    for part in ("middle", "back"):
        element = root.find(part)
        if element is not None:
            for section in element.findall("section"):
                writer.section(section, 1)
            if part == "back":
                for references_element in element.iter("references"):
                    writer.references(references_element)
    if not draft.body:
        draft.warnings.append("no <section> elements were found")
    return draft


def _number_sections(root: ET.Element) -> dict[int, str]:
    """id(section) → its clause path as an RFC renderer would print it."""
    paths: dict[int, str] = {}

    def walk(parent: ET.Element, prefix: str, appendix: bool) -> None:
        """Number the sections below `parent`."""
        counter = 0
        for section in parent.findall("section"):
            if section.get("numbered") == "false":
                walk(section, prefix + "?", appendix)
                continue
            counter += 1
            if appendix and not prefix:
                path = f"Appendix {chr(ord('A') + counter - 1)}"
                child_prefix = chr(ord("A") + counter - 1)
            else:
                path = f"{prefix}.{counter}" if prefix else str(counter)
                child_prefix = path
            paths[id(section)] = path
            walk(section, child_prefix, appendix)

    middle = root.find("middle")
    if middle is not None:
        walk(middle, "", False)
    back = root.find("back")
    if back is not None:
        walk(back, "", True)
    return {key: value for key, value in paths.items() if "?" not in value}


class _Writer:
    """Writes sections, paragraphs, lists, artwork and tables as Markdown lines."""

    def __init__(self, draft: Draft, paths: dict[int, str], references: dict[str, ET.Element]) -> None:
        self.draft = draft
        self.paths = paths
        self.cited = references
        self.anchors: dict[str, str] = {}
        self.unique = UniqueTitles()
        self.tables = 0
        self.figures = 0

    def section(self, section: ET.Element, level: int) -> None:
        """A section: its heading, its blocks, then its subsections."""
        name = section.find("name")
        title = clean_inline("".join(name.itertext())) if name is not None else clean_inline(section.get("title") or "")
        path = self.paths.get(id(section))
        if path is None:
            title = self.unique(title)
        depth = (1 if path.startswith("Appendix") else path.count(".") + 1) if path else level
        if path and path[0].isalpha() and not path.startswith("Appendix"):
            depth = path.count(".") + 1
        self.draft.body.append("")
        self.draft.body.append(heading_line(path, title or path or "Untitled", depth))
        self.draft.body.append("")
        self.blocks(section)
        for child in section.findall("section"):
            self.section(child, level + 1)

    def blocks(self, parent: ET.Element) -> None:
        """The block children of an element, sections excepted."""
        for child in parent:
            tag = child.tag if isinstance(child.tag, str) else ""
            if tag in ("section", "name", "references"):
                continue
            self.block(child, tag)

    def block(self, element: ET.Element, tag: str) -> None:
        """One block: paragraph, list, artwork, figure or table."""
        body = self.draft.body
        if tag in ("artwork", "sourcecode"):
            body.append("```")
            body.extend(line.rstrip() for line in "".join(element.itertext()).strip("\n").split("\n"))
            body.append("```")
            body.append("")
        elif tag == "figure":
            name = element.find("name")
            caption = clean_inline("".join(name.itertext())) if name is not None else clean_inline(element.get("title") or "")
            for child in element:
                if isinstance(child.tag, str) and child.tag != "name":
                    self.block(child, child.tag)
            self.figures += 1
            art = "\n".join("".join(child.itertext()).strip("\n") for child in element.iter() if child.tag in ("artwork", "sourcecode"))
            if art.strip():
                relative = self.draft.add_file(f"{figure_name(str(self.figures))}.svg", ascii_figure_svg(art.split("\n")))
                alt = f"Figure {self.figures} – {caption}" if caption else f"Figure {self.figures}"
                body.append(f"![{alt.replace('[', '(').replace(']', ')')}]({relative})")
            else:
                body.append(safe_text_line(f"Figure {self.figures}: {caption}" if caption else f"Figure {self.figures}"))
            body.append("")
        elif tag in ("table", "texttable"):
            self.table(element)
        elif tag in ("ul", "ol", "list"):
            for number, item in enumerate(element.findall("li") or element.findall("t"), start=1):
                marker = f"{number}." if tag == "ol" or element.get("style") == "numbers" else "-"
                body.append(safe_text_line(f"{marker} {self.inline(item)}"))
            body.append("")
        elif tag == "dl":
            term = ""
            for item in element:
                if item.tag == "dt":
                    term = self.inline(item)
                elif item.tag == "dd":
                    body.append(safe_text_line(f"{term}: {self.inline(item)}"))
            body.append("")
        elif tag in ("t", "blockquote", "aside", "note", "abstract"):
            text = self.inline(element)
            if text:
                body.append(safe_text_line(text))
                body.append("")
        elif tag in _BLOCKS:
            self.blocks(element)

    def table(self, element: ET.Element) -> None:
        """A table as a pipe table, numbered as the RFC renders it."""
        rows: list[list[str]] = []
        for tr in element.iter("tr"):
            rows.append([self.inline(cell).replace("|", "\\|") for cell in tr if cell.tag in ("td", "th")])
        if not rows:  # v2 texttable: ttcol headers, then c cells in reading order
            headers = [self.inline(col) for col in element.findall("ttcol")]
            cells = [self.inline(cell).replace("|", "\\|") for cell in element.findall("c")]
            if headers:
                rows = [headers] + [cells[k : k + len(headers)] for k in range(0, len(cells), len(headers))]
        caption_element = element.find("name")
        caption = (
            clean_inline("".join(caption_element.itertext())) if caption_element is not None else clean_inline(element.get("title") or "")
        )
        body = self.draft.body
        self.tables += 1
        body.append(safe_text_line(f"Table {self.tables}: {caption}" if caption else f"Table {self.tables}"))
        if rows:
            width = max(len(row) for row in rows)
            for number, row in enumerate(rows):
                body.append("| " + " | ".join(row + [""] * (width - len(row))) + " |")
                if number == 0:
                    body.append("|" + "---|" * width)
        body.append("")

    def inline(self, element: ET.Element) -> str:
        """The text of an element on one line, references written out."""
        parts: list[str] = [element.text or ""]
        for child in element:
            tag = child.tag if isinstance(child.tag, str) else ""
            if tag in ("xref", "relref"):
                parts.append(self.xref(child))
            elif tag in ("iref", "cref"):
                pass
            elif tag in ("artwork", "sourcecode"):
                parts.append("`" + clean_inline("".join(child.itertext())) + "`")
            elif tag in ("ul", "ol", "list", "dl", "t"):
                parts.append(" " + self.inline(child) + " ")
            elif tag == "li":
                parts.append("; " + self.inline(child))
            else:
                parts.append(self.inline(child))
            parts.append(child.tail or "")
        return re.sub(r"\s+", " ", "".join(parts)).strip()

    def xref(self, element: ET.Element) -> str:
        """A cross-reference as the reader sees it: `Section 4.2` or `Section 3 of [URI]`."""
        target = element.get("target") or ""
        written = clean_inline("".join(element.itertext()))
        section = element.get(f"{_X}sec") or element.get("section")
        if target in self.cited:
            tag = f"[{target}]"
            if section:
                return f"Section {section} of {tag}"
            return written + " " + tag if written else tag
        if target in self.anchors:
            path = self.anchors[target]
            shown = path if path.startswith("Appendix") else f"Section {path}"
            return f"{written} ({shown})" if written else shown
        return written or target

    def references(self, element: ET.Element) -> None:
        """A references list as one line per entry: `[TAG] Title, RFC 1234`."""
        name = element.find("name")
        title = clean_inline("".join(name.itertext())) if name is not None else clean_inline(element.get("title") or "References")
        body = self.draft.body
        body.append("")
        body.append(heading_line(None, title, 1))
        body.append("")
        for reference in element.findall("reference"):
            ref_title = reference.find("front/title")
            text = clean_inline("".join(ref_title.itertext())) if ref_title is not None else ""
            series = [
                f"{info.get('name')} {info.get('value')}"
                for info in reference.findall("seriesInfo")
                if info.get("name") in ("RFC", "BCP", "STD")
            ]
            source = reference.find(f"{_X}source")
            basename = source.get("basename") if source is not None else None
            if basename:
                series.append(basename.upper().replace("RFC", "RFC "))
            body.append(safe_text_line(f"- [{reference.get('anchor')}] {text}" + (f", {', '.join(series)}" if series else "")))
        body.append("")
