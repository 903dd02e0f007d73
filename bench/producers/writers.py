"""The documents of `content.py` in the source formats of other producers: DocBook (for Apache FOP through the
DocBook XSL-FO stylesheets, and for dblatex), groff `-ms` (for `groff -Tpdf` and `groff -Tps` + Ghostscript's
`ps2pdf`) and pandoc Markdown (for pandoc through LaTeX, or through HTML).

Each writer sets the same blocks as real formatting of its format: numbered headings by the format's own
numbering where it has one (typed where it has none, as an author would), super- and subscripts, footnotes,
no-break spaces, soft hyphens (hyphenation points), captioned tables with and without rules, a drawing of
shapes with labels and a raster plot, a generated table of contents. `figure_files` writes the two
pictures in the forms each format takes (SVG, PDF, PNG); groff draws its figure with `pic`.
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.sax.saxutils import escape

from content import Block, Document

_INLINE = re.compile(r"\^\{([^}]*)\}|_\{([^}]*)\}|\[\^([^\]]*)\]")


def runs(text: str) -> list[tuple[str, str]]:
    """Inline markup as runs: (`text`|`sup`|`sub`|`note`, content)."""
    result = []
    last = 0
    for match in _INLINE.finditer(text):
        if match.start() > last:
            result.append(("text", text[last : match.start()]))
        kind = "sup" if match.group(1) is not None else ("sub" if match.group(2) is not None else "note")
        result.append((kind, match.group(match.lastindex or 1)))
        last = match.end()
    if last < len(text):
        result.append(("text", text[last:]))
    return result


def plain(text: str) -> str:
    """The text as printed, markup removed (footnotes left out, soft hyphens dropped)."""
    return "".join(content for kind, content in runs(text) if kind != "note").replace("\u00ad", "")


def annex_parts(block: Block) -> tuple[str, str]:
    """An annex heading's designator and title (`Annex A`, `Worked examples (informative)`)."""
    head, _, title = block.text.partition(" – ")
    return head, title


# -- the pictures ---------------------------------------------------------------------------------

FIGURE_CM = {"shapes": (14.0, 3.5), "png": (12.0, 6.0)}


def shapes_svg(labels: list[str]) -> str:
    """The drawing of figure 1 as SVG: a beam on two supports, boxes, a dimension line, the labels as text."""
    width, height = FIGURE_CM["shapes"]
    w, h = width * 10, height * 10  # millimetres as user units
    text = [
        f'<text x="8" y="{h - 4}" font-family="Helvetica" font-size="4">{escape(labels[0])}</text>',
        f'<text x="{w - 40}" y="{h - 4}" font-family="Helvetica" font-size="4">{escape(labels[1])}</text>',
        f'<text x="{w / 2 - 15}" y="8" font-family="Helvetica" font-size="4">{escape(labels[2])}</text>',
        f'<text x="{w / 2 - 12}" y="{h / 2 + 12}" font-family="Helvetica" font-size="4">{escape(labels[3])}</text>',
    ]
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}cm" height="{height}cm" viewBox="0 0 {w} {h}">\n'
        f'<rect x="10" y="14" width="{w - 20}" height="6" fill="none" stroke="black" stroke-width="0.6"/>\n'
        f'<polygon points="16,20 10,30 22,30" fill="none" stroke="black" stroke-width="0.6"/>\n'
        f'<polygon points="{w - 16},20 {w - 22},30 {w - 10},30" fill="none" stroke="black" stroke-width="0.6"/>\n'
        f'<line x1="16" y1="{h / 2 + 6}" x2="{w - 16}" y2="{h / 2 + 6}" stroke="black" stroke-width="0.4"/>\n'
        + "".join(f'<line x1="{x}" y1="9" x2="{x}" y2="14" stroke="black" stroke-width="0.4"/>\n' for x in range(20, int(w) - 10, 12))
        + "\n".join(text)
        + "\n</svg>\n"
    )


def shapes_pdf(labels: list[str], target: Path) -> None:
    """The same drawing as a one-page PDF (fpdf2), for the LaTeX routes that take PDF pictures."""
    from fpdf import FPDF

    width, height = (v * 10 for v in FIGURE_CM["shapes"])
    pdf = FPDF(unit="mm", format=(width, height))
    pdf.set_margin(0)
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_line_width(0.6)
    pdf.rect(10, 14, width - 20, 6)
    pdf.polygon([(16, 20), (10, 30), (22, 30), (16, 20)])
    pdf.polygon([(width - 16, 20), (width - 22, 30), (width - 10, 30), (width - 16, 20)])
    pdf.set_line_width(0.4)
    pdf.line(16, height / 2 + 6, width - 16, height / 2 + 6)
    for x in range(20, int(width) - 10, 12):
        pdf.line(x, 9, x, 14)
    pdf.set_font("Helvetica", size=11)
    for (x, y), label in zip(
        [(8, height - 4), (width - 40, height - 4), (width / 2 - 15, 8), (width / 2 - 12, height / 2 + 12)], labels, strict=False
    ):
        pdf.text(x, y, label.replace("–", "-"))
    pdf.output(str(target))


def figure_files(folder: Path, document: Document, png: bytes) -> None:
    """KEY-figure-1.svg, KEY-figure-1.pdf and KEY-figure-2.png beside the sources."""
    labels = next((block.labels for block in document.blocks if block.kind == "figure" and block.labels), ["A", "B", "C", "D"])
    (folder / f"{document.key}-figure-1.svg").write_text(shapes_svg(labels), encoding="utf-8")
    shapes_pdf(labels, folder / f"{document.key}-figure-1.pdf")
    (folder / f"{document.key}-figure-2.png").write_bytes(png)


# -- DocBook (FOP, dblatex) -----------------------------------------------------------------------


def _db_inline(text: str) -> str:
    out = []
    for kind, content in runs(text):
        if kind == "text":
            out.append(escape(content))
        elif kind == "sup":
            out.append(f"<superscript>{escape(content)}</superscript>")
        elif kind == "sub":
            out.append(f"<subscript>{escape(content)}</subscript>")
        else:
            out.append(f"<footnote><para>{escape(content)}</para></footnote>")
    return "".join(out)


_DB_LANG = {"de": "de", "fr": "fr", "en": "en"}


def write_docbook(document: Document, root: str = "book", picture: str = "svg") -> str:
    """DocBook 4.5: a `book` (chapters `Chapter 1. Scope`, sections `1.2.3.`) or an `article` (sections
    `1.2.3.` numbered by the stylesheet); the foreword a preface (an article's abstract), the annex an
    appendix, the bibliography unnumbered. `picture` is the drawing's file type (`svg` for FOP, `pdf` for
    dblatex); the pictures are `KEY-figure-1.svg` … beside the source."""
    titles = [block.text for block in document.blocks if block.kind == "title"]
    info = "bookinfo" if root == "book" else "articleinfo"
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<!DOCTYPE {root} PUBLIC "-//OASIS//DTD DocBook XML V4.5//EN" "http://www.oasis-open.org/docbook/xml/4.5/docbookx.dtd">',
        f'<{root} lang="{document.language}">',
        f"<{info}><title>{escape(titles[1])}</title><subtitle>{escape(titles[0])} – {escape(titles[2])}</subtitle>",
    ]
    open_levels: list[str] = []  # the element names open, outermost first
    info_open = True

    def close_to(level: int) -> None:
        nonlocal info_open
        if info_open and level == 0:
            out.append(f"</{info}>")
            info_open = False
        while len(open_levels) > level:
            out.append(f"</{open_levels.pop()}>")

    blocks = document.blocks
    for index, block in enumerate(blocks):
        if block.kind == "heading":
            if block.number is None and index < len(blocks) // 2:  # the foreword
                if root == "book":
                    close_to(0)
                    out.append(f"<preface><title>{escape(block.text)}</title>")
                    open_levels.append("preface")
                else:  # an article has no preface: its abstract, printed under the title
                    out.append(f"<abstract><title>{escape(block.text)}</title>")
                    open_levels.append("abstract")
            elif block.number is None:  # the bibliography
                close_to(0)
                out.append(f"<bibliography><title>{escape(block.text)}</title>")
                open_levels.append("bibliography")
            elif block.number.startswith(("Anhang", "Annex", "Annexe")):
                close_to(0)
                _, title = annex_parts(block)
                out.append(f"<appendix><title>{_db_inline(title)}</title>")
                open_levels.append("appendix")
            elif not block.numbered:  # A.1, A.2 inside the appendix
                close_to(1)
                out.append(f"<section><title>{_db_inline(block.text)}</title>")
                open_levels.append("section")
            else:
                close_to(block.level - 1)
                name = "chapter" if root == "book" and block.level == 1 else "section"
                out.append(f"<{name}><title>{_db_inline(block.text)}</title>")
                open_levels.append(name)
        elif block.kind == "para" and open_levels[-1:] == ["bibliography"]:
            out.append(f"<bibliomixed>{_db_inline(block.text)}</bibliomixed>")
        elif block.kind == "para":
            out.append(f"<para>{_db_inline(block.text)}</para>")
            if open_levels[-1:] == ["abstract"]:
                out.append("</abstract>")
                open_levels.pop()
        elif block.kind == "table":
            ruled = block.number != "2"  # table 2 is set without rules
            frame, sep = ("all", "1") if ruled else ("none", "0")
            cols = len(block.header)
            head = "".join(f"<entry>{_db_inline(cell)}</entry>" for cell in block.header)
            body = "".join("<row>" + "".join(f"<entry>{_db_inline(cell)}</entry>" for cell in row) + "</row>" for row in block.rows)
            out.append(
                f'<table frame="{frame}" rowsep="{sep}" colsep="{sep}"><title>{_db_inline(block.text)}</title>'
                f'<tgroup cols="{cols}"><thead><row>{head}</row></thead><tbody>{body}</tbody></tgroup></table>'
            )
        elif block.kind == "figure":
            if block.figure == "shapes":
                data = f'<imagedata fileref="{document.key}-figure-1.{picture}" format="{picture.upper()}" contentwidth="{FIGURE_CM["shapes"][0]}cm"/>'
            else:
                data = f'<imagedata fileref="{document.key}-figure-2.png" format="PNG" contentwidth="{FIGURE_CM["png"][0]}cm"/>'
            out.append(
                f"<figure><title>{_db_inline(block.text)}</title><mediaobject><imageobject>{data}</imageobject></mediaobject></figure>"
            )
    close_to(0)
    out.append(f"</{root}>")
    return "\n".join(out) + "\n"


# -- groff -ms (gropdf, and PostScript through Ghostscript) ----------------------------------------


def _roff_escape(text: str) -> str:
    """Text as roff input: backslashes escaped, the no-break space as roff's unbreakable space `\\~`."""
    return text.replace("\\", "\\e").replace("\u00a0", "\\~")


def _ms_inline(text: str) -> tuple[str, list[str]]:
    """The text as ms input, and the footnotes it cites (each `\\**` is followed by its `.FS`…`.FE`)."""
    out = []
    notes = []
    for kind, content in runs(text):
        if kind == "text":
            text = _roff_escape(content).replace("\u00ad", "\\%")
            out.append("\\&" + text if not out and text.startswith((".", "'")) else text)
        elif kind == "sup":
            out.append(f"\\*{{{_roff_escape(content)}\\*}}")
        elif kind == "sub":
            out.append(f"\\d\\s-3{_roff_escape(content)}\\s+3\\u")
        else:
            out.append("\\**")
            notes.append(content)
    return "".join(out), notes


def _ms_lines(text: str) -> list[str]:
    """A paragraph's input lines: the text cut after each footnote mark, its note set right after that line."""
    result = []
    pieces = re.split(r"(\[\^[^\]]*\])", text)
    current = ""
    for piece in pieces:
        if piece.startswith("[^"):
            line, notes = _ms_inline(current + piece)
            result.append(line)
            for note in notes:
                result += [".FS", _ms_inline(note)[0], ".FE"]
            current = ""
        else:
            current += piece
    if current.strip():
        result.append(_ms_inline(current.lstrip())[0])
    return [line for line in result if line]


_MS_WORDS = {
    "de": {"TOC": "Inhaltsverzeichnis", "hy": "de"},
    "fr": {"TOC": "Table des matières", "hy": "fr"},
    "en": {"TOC": "Contents", "hy": "us"},
}


def write_ms(document: Document, bookmarks: bool = True) -> str:
    """groff `-ms` with `tbl` and `pic`: `.NH` numbered headings (`1.2.3.` by ms), unnumbered ones `.SH`, the
    annex typed; footnotes `.FS`/`.FE`, scripts `\\*{…\\*}` and `\\d…\\u`; the contents collected with
    `.XS`/`.XE` and printed by `.TC` at the end, as ms does; `.pdfbookmark` for the outline."""
    words = _MS_WORDS[document.language]
    titles = [block.text for block in document.blocks if block.kind == "title"]
    out = [
        f'.ds TOC "{words["TOC"]}',
        ".nr PS 11",
        ".nr VS 13",
        ".nr HM 1i",
        ".nr FM 1i",
        ".nr PO 1i",
        ".nr LL 6.3i",
        ".ds CH",
        ".ds CF - \\\\n% -",  # the page number at the foot, centred
        f".ds LH {_roff_escape(titles[0])}",
        ".nr GROWPS 3",
        ".nr PSINCR 1.5p",
        f".hla {words['hy']}",
        ".TL",
        _roff_escape(titles[1]),
        ".AU",
        _roff_escape(titles[0]),
        ".AI",
        _roff_escape(titles[2]),
    ]

    def bookmark(level: int, text: str) -> None:
        if bookmarks:
            out.append(f'.pdfbookmark {level} "{text}"')

    def contents(level: int, text: str) -> None:
        out.extend([f".XS \\n% {2 * (level - 1)}n", _roff_escape(text), ".XE"])

    for block in document.blocks:
        if block.kind == "heading":
            if block.number is None or not block.numbered:
                title = block.text if block.number is None or block.number.startswith(("Anh", "Ann")) else f"{block.number} {block.text}"
                level = 1 if block.number is None or block.number.startswith(("Anh", "Ann")) else 2
                out += [f".SH {level}", _roff_escape(plain(title))]
                bookmark(level, plain(title))
                contents(level, plain(title))
            else:
                out += [f".NH {block.level}", _roff_escape(plain(block.text))]
                bookmark(block.level, f"{block.number}. {plain(block.text)}")
                out.extend([f".XS \\n% {2 * (block.level - 1)}n", f"\\*[SN] {_roff_escape(plain(block.text))}", ".XE"])
        elif block.kind == "para":
            out += [".PP", *_ms_lines(block.text)]
        elif block.kind == "table":
            ruled = block.number != "2"
            cols = len(block.header)
            caption, _ = _ms_inline(f"{document.words['table']} {block.number}: {block.text}")
            out += [".KS", ".PP", ".ce", caption, ".TS", "center box tab(@);" if ruled else "center tab(@);"]
            out.append(" ".join(["cb"] * cols))
            widths = ["lw(1.3i)"] + ["lw(1.1i)" if k < cols - 1 else "lw(2.2i)" for k in range(1, cols)]
            out.append(" ".join(widths) + ".")
            out.append("@".join(_ms_inline(cell)[0] for cell in block.header))
            out.append("_")
            for row in block.rows:
                out.append("@".join(f"T{{\n{_ms_inline(cell)[0]}\nT}}" for cell in row))
                if ruled and row is not block.rows[-1]:
                    out.append("_")
            out += [".TE", ".KE"]
        elif block.kind == "figure":
            caption, _ = _ms_inline(f"{document.words['figure']} {block.number}: {block.text}")
            if block.figure == "shapes":
                labels = block.labels
                picture = [
                    ".PS 5.5i",
                    "B: box wid 5 ht 0.2",
                    "L: line from B.sw + (0.1,0) down 0.3 left 0.15 then right 0.3 then to B.sw + (0.1,0)",
                    "R: line from B.se - (0.1,0) down 0.3 left 0.15 then right 0.3 then to B.se - (0.1,0)",
                    f'"{labels[0]}" at L.start + (0,-0.45)',
                    f'"{labels[1]}" at R.start + (0,-0.45)',
                    f'"{labels[2]}" at B.n + (0,0.25)',
                    "line from B.w + (0.1,-0.6) to B.e + (-0.1,-0.6)",
                    f'"{labels[3]}" at B.c + (0,-0.75)',
                    ".PE",
                ]
            else:
                points = " then ".join(f"to ({x / 4:.2f},{(1 - (x - 8) ** 2 / 64) * 1.6 + 0.2:.2f})" for x in range(1, 17))
                picture = [".PS 4.5i", "box wid 4.2 ht 2 with .sw at (0,0)", f"line from (0,0.6) {points}", ".PE"]
            out += [".KS", ".PP", *picture, ".ce", caption, ".KE"]
    out += [".if d pdfsync .pdfsync", ".TC"]  # pdfmark.tmac writes the last bookmark only when flushed
    return "\n".join(out) + "\n"


# -- pandoc Markdown (LaTeX, HTML) ----------------------------------------------------------------

_GREEK = {"α": "\\alpha", "γ": "\\gamma", "ε": "\\varepsilon", "ρ": "\\rho", "μ": "\\mu"}


def _md_inline(text: str, notes: list[str], latex: bool) -> str:
    out = []
    for kind, content in runs(text):
        content_md = re.sub(r"([*_\[\]<>#`|])", r"\\\1", content).replace("^", "\\^").replace("~", "\\~")
        if latex:
            content_md = "".join(f"$ {_GREEK[c]}$" if c in _GREEK else c for c in content_md).replace("$ ", "$")
        if kind == "text":
            out.append(content_md)
        elif kind == "sup":
            out.append("^" + content_md.replace(" ", "\\ ") + "^")
        elif kind == "sub":
            out.append("~" + content_md.replace(" ", "\\ ") + "~")
        else:
            notes.append(content)
            out.append(f"[^{len(notes)}]")
    return "".join(out)


def write_markdown(document: Document, latex: bool = True) -> str:
    """pandoc Markdown: numbered headings by `--number-sections`, the foreword, the annex and the bibliography
    `{.unnumbered}` (the annex clauses typed), pipe tables with a caption, figures with a caption,
    `^…^` and `~…~` scripts, footnotes; Greek letters as TeX math for the LaTeX route."""
    titles = [block.text for block in document.blocks if block.kind == "title"]
    notes: list[str] = []
    out = [
        "---",
        f'title: "{titles[1]}"',
        f'subtitle: "{titles[0]} – {titles[2]}"',
        f"lang: {document.language}",
        f'toc-title: "{document.words["contents"]}"',
        "---",
        "",
    ]
    for block in document.blocks:
        if block.kind == "heading":
            if block.number is None:
                out.append(f"# {_md_inline(block.text, notes, latex)} {{.unnumbered}}")
            elif not block.numbered:
                out.append(
                    f"{'#' * block.level} {_md_inline(block.text if block.level == 1 else f'{block.number} {block.text}', notes, latex)} {{.unnumbered}}"
                )
            else:
                out.append(f"{'#' * block.level} {_md_inline(block.text, notes, latex)}")
        elif block.kind == "para":
            out.append(_md_inline(block.text, notes, latex))
        elif block.kind == "table":
            out.append("| " + " | ".join(_md_inline(cell, notes, latex) for cell in block.header) + " |")
            out.append("|" + "|".join("-" * (12 if k < len(block.header) - 1 else 40) for k in range(len(block.header))) + "|")
            for row in block.rows:
                out.append("| " + " | ".join(_md_inline(cell, notes, latex) for cell in row) + " |")
            out.append("")
            out.append(f": {_md_inline(block.text, notes, latex)}")
        elif block.kind == "figure":
            name = f"{document.key}-figure-{1 if block.figure == 'shapes' else 2}.{'png' if block.figure == 'png' else ('pdf' if latex else 'svg')}"
            width = FIGURE_CM[block.figure][0]
            out.append(f"![{_md_inline(block.text, notes, latex)}]({name}){{width={width}cm}}")
        out.append("")
    out.append("")
    for number, note in enumerate(notes, start=1):
        out.append(f"[^{number}]: {_md_inline(note, [], latex)}")
    return "\n".join(out) + "\n"


# -- AsciiDoc (asciidoctor-pdf) -------------------------------------------------------------------------


def _adoc_inline(text: str) -> str:
    out = []
    for kind, content in runs(text):
        escaped = content.replace("*", "\\*").replace("_", "\\_").replace("#", "\\#").replace("^", "\\^").replace("~", "\\~")
        if kind == "text":
            out.append(escaped)
        elif kind == "sup":
            out.append(f"^{escaped}^")
        elif kind == "sub":
            out.append(f"~{escaped}~")
        else:
            out.append(f"footnote:[{escaped}]")
    return "".join(out)


_ADOC_WORDS = {
    "de": {"toc": "Inhaltsverzeichnis", "appendix": "Anhang", "table": "Tabelle", "figure": "Abbildung"},
    "fr": {"toc": "Table des matières", "appendix": "Annexe", "table": "Tableau", "figure": "Figure"},
    "en": {"toc": "Contents", "appendix": "Annex", "table": "Table", "figure": "Figure"},
}


def write_asciidoc(document: Document) -> str:
    """AsciiDoc for asciidoctor-pdf: numbered sections (`:sectnums:`, printed `1.2.`), the foreword and the
    bibliography unnumbered, the annex an `[appendix]` (printed `Annex A: …`, its clauses `A.1.`), captioned
    tables (`.Caption`, with and without rules) and images, `^…^` / `~…~` scripts, `footnote:[…]`, a contents."""
    words = _ADOC_WORDS[document.language]
    titles = [block.text for block in document.blocks if block.kind == "title"]
    out = [
        f"= {titles[1]}",
        f"{titles[0]}",
        ":doctype: article",
        ":toc: macro",
        f":toc-title: {words['toc']}",
        ":toclevels: 3",
        ":sectnums:",
        ":sectnumlevels: 3",
        f":lang: {document.language}",
        f":appendix-caption: {words['appendix']}",
        f":table-caption: {words['table']}",
        f":figure-caption: {words['figure']}",
        ":hyphens:",
        "",
        titles[2],
        "",
        "toc::[]",
        "",
    ]
    for block in document.blocks:
        if block.kind == "heading":
            if block.number is None:  # the foreword and the bibliography, unnumbered
                out += [":sectnums!:", f"== {block.text}", ":sectnums:", ""]
            elif block.number.startswith(("Anhang", "Annex", "Annexe")):
                out += ["[appendix]", f"== {_adoc_inline(annex_parts(block)[1])}", ""]
            elif not block.numbered:
                out += [f"=== {_adoc_inline(block.text)}", ""]
            else:
                out += [f"{'=' * (block.level + 1)} {_adoc_inline(block.text)}", ""]
        elif block.kind == "para":
            out += [_adoc_inline(block.text), ""]
        elif block.kind == "table":
            ruled = block.number != "2"
            cols = len(block.header)
            widths = ",".join(["2"] * (cols - 1) + ["4"])
            frame = "all" if ruled else "none"
            out += [f".{_adoc_inline(block.text)}", f'[cols="{widths}",options="header",frame={frame},grid={frame}]', "|==="]
            out.append(" ".join(f"|{_adoc_inline(cell)}" for cell in block.header))
            out += [" ".join(f"|{_adoc_inline(cell)}" for cell in row) for row in block.rows]
            out += ["|===", ""]
        elif block.kind == "figure":
            name = f"{document.key}-figure-{1 if block.figure == 'shapes' else 2}.{'svg' if block.figure == 'shapes' else 'png'}"
            out += [f".{_adoc_inline(block.text)}", f"image::{name}[width={FIGURE_CM[block.figure][0] * 10:.0f}mm]", ""]
    return "\n".join(out) + "\n"
