"""Markdown into a draft: any heading style (ATX or setext, numbered or not), images copied into the bundle.

A heading's clause number decides its depth, whatever its `#` count says (NIST writes 5.1.1 and
5.1.1.1 both as H4); anchors in headings are dropped from the title and links to them are
rewritten to the clause path, so that the bundle's own cross-references resolve. Images are copied
into `figures/`; an image outside the source folder is refused (reported, its alt text kept).
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import unquote

from normcli.bundle import CODE_FENCE, IMAGE
from normcli.importers.common import (
    FIGURE_CAPTION,
    Draft,
    UniqueTitles,
    clean_inline,
    heading_line,
    parse_number,
    safe_file_name,
)
from normcli.labels import FIGURE_CAPTION_LABEL

_ATX = re.compile(r"^ {0,3}(?P<hashes>#{1,6})[ \t]+(?P<text>.*?)(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_ANCHOR = re.compile(r"<a\s+(?:name|id)\s*=\s*[\"'](?P<name>[^\"']+)[\"']\s*>\s*</a>|\{#(?P<attr>[^}\s]+)\}", re.I)
_TAG = re.compile(r"<[^>]+>")
_HTML_IMAGE = re.compile(r"<img\b[^>]*?\bsrc\s*=\s*[\"'](?P<src>[^\"']+)[\"'][^>]*>", re.I)
_HTML_ALT = re.compile(r"\balt\s*=\s*[\"'](?P<alt>[^\"']*)[\"']", re.I)
_LINK_TO_ANCHOR = re.compile(r"\]\(#(?P<anchor>[^)\s]+)\)")
_BOLD_CAPTION = re.compile(rf"^\s*\*\*(?P<caption>{FIGURE_CAPTION_LABEL}\s*[A-Z]?\d+(?:[.\-]\d+)*[^*]*)\*\*(?P<rest>.*)$")


def import_markdown(source: Path) -> Draft:
    """Read a Markdown file into a draft, copying the images it links to."""
    text = source.read_text(encoding="utf-8", errors="replace").lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    draft = Draft()
    lines = _strip_front_matter(lines, draft)
    headings = _headings(lines)
    anchors: dict[str, str] = {}
    unique = UniqueTitles()
    paths: dict[int, tuple[str | None, str, int]] = {}
    for index, (level, raw) in headings.items():
        for match in _ANCHOR.finditer(raw):
            anchors.setdefault(match.group("name") or match.group("attr"), "")
        title = clean_inline(html.unescape(_TAG.sub("", _ANCHOR.sub("", raw)))).strip()
        title = re.sub(r"^\*\*(.*)\*\*$", r"\1", title).strip()
        number = parse_number(title)
        if number and (number.title or number.kind == "annex"):
            path, name, depth = number.path, number.title or number.path, number.depth
        else:
            path, name, depth = None, unique(title or "Untitled"), level
        paths[index] = (path, name, depth)
        for match in _ANCHOR.finditer(raw):
            anchors[match.group("name") or match.group("attr")] = path or name
    _body_anchors(lines, paths, anchors)
    if not draft.title:
        draft.title = next((name for _, name, _ in paths.values()), source.stem)
    body = draft.body
    in_fence = False
    started = False
    skip_next = False
    for index, line in enumerate(lines):
        if skip_next:
            skip_next = False
            continue
        if CODE_FENCE.match(line):
            in_fence = not in_fence
        if not in_fence and index in paths:
            path, name, depth = paths[index]
            started = True
            body.append(heading_line(path, name, depth))
            skip_next = index + 1 < len(lines) and _SETEXT.match(lines[index + 1]) is not None and not _ATX.match(line)
            continue
        if not started:
            if not line.strip():
                continue
            started = True
            body.append(heading_line(None, "Front matter", 1))
            body.append("")
        if in_fence or CODE_FENCE.match(line):
            body.append(line)
            continue
        line = _LINK_TO_ANCHOR.sub(
            lambda m: f"](#{anchors[unquote(m.group('anchor'))]})" if anchors.get(unquote(m.group("anchor"))) else m.group(0), line
        )
        line = _images(line, source, draft, lines, index)
        body.append(line)
    while body and not body[-1].strip():
        body.pop()
    return draft


def _body_anchors(lines: list[str], paths: dict[int, tuple[str | None, str, int]], anchors: dict[str, str]) -> None:
    """Anchors outside headings: one standing just before a heading names it, any other names its section."""
    current = None
    in_fence = False
    for index, line in enumerate(lines):
        if CODE_FENCE.match(line):
            in_fence = not in_fence
        if in_fence:
            continue
        if index in paths:
            current = paths[index][0] or paths[index][1]
            continue
        for match in _ANCHOR.finditer(line):
            name = match.group("name") or match.group("attr")
            if anchors.get(name):
                continue
            target = current
            if not _ANCHOR.sub("", line).strip():
                following = next((k for k in range(index + 1, min(index + 4, len(lines))) if lines[k].strip()), None)
                if following is not None and following in paths:
                    target = paths[following][0] or paths[following][1]
            if target:
                anchors[name] = target


def _strip_front_matter(lines: list[str], draft: Draft) -> list[str]:
    """The lines after a YAML front matter block (`---` … `---`), whose `title:` becomes the draft's title."""
    if not lines or lines[0].strip() != "---":
        return lines
    for index in range(1, min(len(lines), 200)):
        if lines[index].strip() in ("---", "..."):
            for field in lines[1:index]:
                match = re.match(r"^title:\s*(.+)$", field.strip())
                if match:
                    draft.title = match.group(1).strip().strip("\"'")
            return lines[index + 1 :]
    return lines


def _headings(lines: list[str]) -> dict[int, tuple[int, str]]:
    """Line index → (level, raw text) for ATX and setext headings outside code fences."""
    found: dict[int, tuple[int, str]] = {}
    in_fence = False
    for index, line in enumerate(lines):
        if CODE_FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        match = _ATX.match(line)
        if match and match.group("text").strip():
            found[index] = (len(match.group("hashes")), match.group("text"))
            continue
        if (
            index + 1 < len(lines)
            and line.strip()
            and not line.startswith((" " * 4, "\t", "|", ">", "-", "*", "+", "<"))
            and _SETEXT.match(lines[index + 1])
            and (index == 0 or not lines[index - 1].strip())
        ):
            found[index] = (1 if lines[index + 1].strip().startswith("=") else 2, line.strip())
    return found


def _images(line: str, source: Path, draft: Draft, lines: list[str], index: int) -> str:
    """Copy the images a line links to into the bundle and point the links there."""
    folder = source.parent.resolve()

    def copy(src: str, alt: str) -> str | None:
        """The image copied into the bundle, or None when it is remote, outside the source folder or missing."""
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.\-]*:", src) or src.startswith("//"):
            return None
        target = (source.parent / unquote(src.split("#")[0].split("?")[0])).resolve()
        if not target.is_relative_to(folder):
            draft.warnings.append(f"line {index + 1}: image '{src}' is outside the source folder; it was not copied")
            return None
        if not target.is_file():
            draft.warnings.append(f"line {index + 1}: image '{src}' is missing; only its text was kept")
            return None
        return draft.add_file(f"{safe_file_name(target.stem)}{target.suffix.lower() or '.png'}", target)

    def markdown_image(match: re.Match[str]) -> str:
        """A `![alt](src)` pointed at its copy in the bundle."""
        alt = match.group("alt")
        relative = copy(match.group("src"), alt)
        if relative is None:
            return (
                f"[{alt or 'image'}]({match.group('src')})" if re.match(r"^[a-zA-Z][a-zA-Z0-9+.\-]*:", match.group("src")) else (alt or "")
            )
        return f"![{_figure_alt(alt, lines, index)}]({relative})"

    def html_image(match: re.Match[str]) -> str:
        """An `<img src>` turned into a Markdown image of its copy."""
        alt_match = _HTML_ALT.search(match.group(0))
        alt = alt_match.group("alt") if alt_match else ""
        relative = copy(match.group("src"), alt)
        if relative is None:
            return match.group(0) if re.match(r"^[a-zA-Z][a-zA-Z0-9+.\-]*:", match.group("src")) else (alt or "")
        return f"![{_figure_alt(alt, lines, index)}]({relative})"

    line = IMAGE.sub(markdown_image, line)
    return _HTML_IMAGE.sub(html_image, line)


def _figure_alt(alt: str, lines: list[str], index: int) -> str:
    """The alt text, led by the figure label of a nearby bold caption (`**Figure 4-1 Digital Identity Model**`)."""
    alt = clean_inline(alt).replace("[", "(").replace("]", ")")
    if FIGURE_CAPTION.match(alt) or re.match(rf"^{FIGURE_CAPTION_LABEL}\s*[A-Z]?\d", alt):
        return alt
    for near in [*lines[max(0, index - 4) : index][::-1], *lines[index + 1 : index + 5]]:
        match = _BOLD_CAPTION.match(near)
        if match:
            caption = (
                clean_inline(_TAG.sub("", html.unescape(match.group("caption") + match.group("rest")))).replace("[", "(").replace("]", ")")
            )
            return caption
    return alt or "image"
