"""Build the office-producer test documents: .odt, .docx and .html, and PDFs of each from LibreOffice and Chromium.

    python3 bench/producers/make_documents.py OUT [--small] [--only timber-de]

needs LibreOffice (`soffice`, and `python3-uno` for the system `python3`, which runs this script: the
generated table of contents is filled by LibreOffice itself) and optionally `chromium`. For each
document of `content.py` it writes into OUT:

- `KEY.fodt`, the source (flat ODF written here: outline-numbered headings, a generated table of
  contents with dot leaders, captioned tables with a repeated header row, footnotes, a drawing made of
  shapes and an embedded PNG, real super- and subscripts), then `KEY.odt` and `KEY.docx` saved by
  LibreOffice after it has filled the contents;
- `KEY.odt.pdf`, `KEY.odt-nobookmarks.pdf`, `KEY.docx.pdf`, `KEY.docx-nobookmarks.pdf`:
  `soffice --headless --convert-to pdf` with and without `ExportBookmarks`;
- with `--producers office-endnotes`: `KEY-endnotes.fodt`, `.odt`, `.docx` with every second note of the text an
  endnote (numbered i, ii … as Word and LibreOffice number them), and `KEY-endnotes.odt.pdf`,
  `KEY-endnotes.odt-nobookmarks.pdf`, `KEY-endnotes.docx.pdf`;
- `KEY.html`, and `KEY.chromium.pdf` / `KEY.chromium-outline.pdf` printed with headless Chromium
  (`--print-to-pdf`, the second with `--generate-pdf-document-outline`);
- `KEY.truth.json`: what the importer should find, computed from the source blocks (tree with paths
  and titles, tables with caption, header and rows, super/subscripts, footnotes, figures, no-break
  spaces, hyphenated and soft-hyphenated words), the pages of the headings read from the outline of
  the PDFs that have one (with pypdfium2, when the script's Python has it; else left out).
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from html import escape as html_escape
from pathlib import Path
from xml.sax.saxutils import escape

sys.path.insert(0, str(Path(__file__).resolve().parent))
from content import SPECS, Block, Document, build
from writers import figure_files, runs, write_asciidoc, write_docbook, write_markdown, write_ms


def plain(text: str) -> str:
    """The text as printed, markup removed (footnotes left out, soft hyphens dropped)."""
    return "".join(content for kind, content in runs(text) if kind != "note").replace("\u00ad", "")


def heading_text(block: Block) -> str:
    """The heading as typed in the document (outline numbers are added by the numbering, not typed)."""
    if block.number and not block.numbered and not block.number.startswith(("Anhang", "Annex")):
        return f"{block.number} {block.text}"
    return block.text


# -- a small PNG, written here (a plot of one curve) ----------------------------------------------


def png_plot(width: int = 480, height: int = 240) -> bytes:
    """A PNG of a curve on axes, drawn pixel by pixel."""
    import math

    pixels = [[(255, 255, 255)] * width for _ in range(height)]
    for x in range(40, width - 10):
        pixels[height - 30][x] = (0, 0, 0)
    for y in range(10, height - 30):
        pixels[y][40] = (0, 0, 0)
    for x in range(41, width - 10):
        value = 0.5 + 0.4 * math.sin((x - 40) / 60.0)
        y = int((height - 30) - value * (height - 50))
        for dy in (-1, 0, 1):
            pixels[y + dy][x] = (200, 40, 40)
    raw = b"".join(b"\x00" + bytes(c for pixel in row for c in pixel) for row in pixels)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return len(data).to_bytes(4, "big") + kind + data + (zlib.crc32(kind + data) & 0xFFFFFFFF).to_bytes(4, "big")

    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


# -- flat ODF -------------------------------------------------------------------------------------

_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
    'xmlns:xlink="http://www.w3.org/1999/xlink" '
    'xmlns:dc="http://purl.org/dc/elements/1.1/" '
    'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" '
    'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
    'xmlns:loext="urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0"'
)

_COUNTRY = {"de": "CH", "fr": "CH", "en": "GB"}


def _styles(language: str) -> str:
    country = _COUNTRY[language]
    levels = "".join(
        f'<text:outline-level-style text:level="{level}" style:num-format="1" text:display-levels="{level}">'
        '<style:list-level-properties text:list-level-position-and-space-mode="label-alignment">'
        f'<style:list-level-label-alignment text:label-followed-by="listtab" text:list-tab-stop-position="{0.8 + 0.4 * level:.1f}cm" '
        f'fo:text-indent="-{0.8 + 0.4 * level:.1f}cm" fo:margin-left="{0.8 + 0.4 * level:.1f}cm"/>'
        "</style:list-level-properties></text:outline-level-style>"
        for level in (1, 2, 3)
    )
    headings = "".join(
        f'<style:style style:name="Heading_20_{level}" style:display-name="Heading {level}" style:family="paragraph" '
        f'style:parent-style-name="Heading" style:next-style-name="Text_20_body" style:default-outline-level="{level}" style:class="text">'
        f'<style:paragraph-properties fo:margin-top="{0.5 - 0.1 * level:.2f}cm" fo:margin-bottom="0.2cm"/>'
        f'<style:text-properties fo:font-size="{18 - 2 * level}pt" fo:font-weight="bold"/></style:style>'
        for level in (1, 2, 3)
    )
    contents = "".join(
        f'<style:style style:name="Contents_20_{level}" style:display-name="Contents {level}" style:family="paragraph" '
        'style:parent-style-name="Standard" style:class="index">'
        f'<style:paragraph-properties fo:margin-left="{0.5 * (level - 1):.1f}cm" fo:margin-bottom="0.1cm">'
        '<style:tab-stops><style:tab-stop style:position="16cm" style:type="right" style:leader-style="dotted" style:leader-text="."/>'
        "</style:tab-stops></style:paragraph-properties></style:style>"
        for level in (1, 2, 3)
    )
    return f"""<office:font-face-decls>
<style:font-face style:name="Liberation Serif" svg:font-family="'Liberation Serif'" style:font-family-generic="roman" style:font-pitch="variable"/>
<style:font-face style:name="Liberation Sans" svg:font-family="'Liberation Sans'" style:font-family-generic="swiss" style:font-pitch="variable"/>
</office:font-face-decls>
<office:styles>
<style:default-style style:family="paragraph"><style:paragraph-properties style:tab-stop-distance="1.25cm"/>
<style:text-properties style:font-name="Liberation Serif" fo:font-size="11pt" fo:language="{language}" fo:country="{country}"/></style:default-style>
<style:style style:name="Standard" style:family="paragraph" style:class="text"/>
<style:style style:name="Text_20_body" style:display-name="Text body" style:family="paragraph" style:parent-style-name="Standard" style:class="text">
<style:paragraph-properties fo:margin-top="0cm" fo:margin-bottom="0.25cm" fo:line-height="115%" fo:text-align="justify"/></style:style>
<style:style style:name="Heading" style:family="paragraph" style:parent-style-name="Standard" style:next-style-name="Text_20_body" style:class="text">
<style:paragraph-properties fo:keep-with-next="always"/><style:text-properties style:font-name="Liberation Sans"/></style:style>
{headings}
<style:style style:name="Title" style:family="paragraph" style:parent-style-name="Heading" style:class="chapter">
<style:paragraph-properties fo:text-align="center" fo:margin-top="1cm" fo:margin-bottom="0.5cm"/>
<style:text-properties fo:font-size="24pt" fo:font-weight="bold"/></style:style>
<style:style style:name="Subtitle" style:family="paragraph" style:parent-style-name="Heading" style:class="chapter">
<style:paragraph-properties fo:text-align="center" fo:margin-bottom="0.5cm"/><style:text-properties fo:font-size="14pt"/></style:style>
<style:style style:name="Contents_20_Heading" style:display-name="Contents Heading" style:family="paragraph" style:parent-style-name="Heading" style:class="index">
<style:paragraph-properties fo:break-before="page" fo:margin-bottom="0.4cm"/><style:text-properties fo:font-size="16pt" fo:font-weight="bold"/></style:style>
{contents}
<style:style style:name="Table_20_Contents" style:display-name="Table Contents" style:family="paragraph" style:parent-style-name="Standard" style:class="extra">
<style:text-properties fo:font-size="10pt"/></style:style>
<style:style style:name="Table_20_Heading" style:display-name="Table Heading" style:family="paragraph" style:parent-style-name="Table_20_Contents" style:class="extra">
<style:text-properties fo:font-weight="bold"/></style:style>
<style:style style:name="Caption" style:family="paragraph" style:parent-style-name="Standard" style:class="extra">
<style:paragraph-properties fo:margin-top="0.2cm" fo:margin-bottom="0.3cm" fo:keep-with-next="always"/>
<style:text-properties fo:font-size="10pt" fo:font-style="italic"/></style:style>
<style:style style:name="Table" style:family="paragraph" style:parent-style-name="Caption" style:class="extra"/>
<style:style style:name="Figure" style:family="paragraph" style:parent-style-name="Caption" style:class="extra">
<style:paragraph-properties fo:keep-with-next="auto"/></style:style>
<style:style style:name="Footnote" style:family="paragraph" style:parent-style-name="Standard" style:class="extra">
<style:paragraph-properties fo:margin-left="0.4cm" fo:text-indent="-0.4cm"/><style:text-properties fo:font-size="9pt"/></style:style>
<style:style style:name="Header" style:family="paragraph" style:parent-style-name="Standard" style:class="extra">
<style:paragraph-properties fo:text-align="end"/><style:text-properties fo:font-size="9pt"/></style:style>
<style:style style:name="Footer" style:family="paragraph" style:parent-style-name="Standard" style:class="extra">
<style:paragraph-properties fo:text-align="center"/><style:text-properties fo:font-size="9pt"/></style:style>
<style:style style:name="Graphics" style:family="graphic"><style:graphic-properties text:anchor-type="paragraph" svg:x="0cm" svg:y="0cm"
 style:wrap="none" style:vertical-pos="top" style:vertical-rel="paragraph" style:horizontal-pos="center" style:horizontal-rel="paragraph"/></style:style>
<style:style style:name="Footnote_20_Symbol" style:display-name="Footnote Symbol" style:family="text"/>
<style:style style:name="Footnote_20_anchor" style:display-name="Footnote anchor" style:family="text">
<style:text-properties style:text-position="super 58%"/></style:style>
<text:outline-style style:name="Outline">{levels}</text:outline-style>
<text:notes-configuration text:note-class="footnote" text:citation-style-name="Footnote_20_Symbol" text:citation-body-style-name="Footnote_20_anchor"
 style:num-format="1" text:start-value="0" text:footnotes-position="page" text:start-numbering-at="document"/>
<style:style style:name="Endnote" style:family="paragraph" style:parent-style-name="Standard" style:class="extra">
<style:paragraph-properties fo:margin-left="0.5cm" fo:text-indent="-0.5cm"/><style:text-properties fo:font-size="9pt"/></style:style>
<style:style style:name="Endnote_20_Symbol" style:display-name="Endnote Symbol" style:family="text"/>
<style:style style:name="Endnote_20_anchor" style:display-name="Endnote anchor" style:family="text">
<style:text-properties style:text-position="super 58%"/></style:style>
<text:notes-configuration text:note-class="endnote" text:citation-style-name="Endnote_20_Symbol" text:citation-body-style-name="Endnote_20_anchor"
 style:num-format="i" text:start-value="0"/>
</office:styles>
<office:automatic-styles>
<style:style style:name="Tsup" style:family="text"><style:text-properties style:text-position="super 58%"/></style:style>
<style:style style:name="Tsub" style:family="text"><style:text-properties style:text-position="sub 58%"/></style:style>
<style:style style:name="Pbreak" style:family="paragraph" style:parent-style-name="Heading_20_1">
<style:paragraph-properties fo:break-before="page"/></style:style>
<style:style style:name="Pcentre" style:family="paragraph" style:parent-style-name="Standard">
<style:paragraph-properties fo:text-align="center" fo:margin-top="0.3cm" fo:keep-with-next="always"/></style:style>
<style:style style:name="Pkeep" style:family="paragraph" style:parent-style-name="Standard">
<style:paragraph-properties fo:keep-with-next="always"/></style:style>
<style:style style:name="Tbl" style:family="table"><style:table-properties style:width="16cm" table:align="margins" fo:margin-bottom="0.2cm"/></style:style>
<style:style style:name="Cell" style:family="table-cell"><style:table-cell-properties fo:padding="0.08cm" fo:border="0.5pt solid #000000"/></style:style>
<style:style style:name="gr1" style:family="graphic" style:parent-style-name="Graphics">
<style:graphic-properties svg:stroke-width="0.03cm" svg:stroke-color="#000000" draw:fill="solid" draw:fill-color="#d9d9d9"
 style:wrap="none" style:vertical-pos="from-top" style:vertical-rel="paragraph" style:horizontal-pos="from-left" style:horizontal-rel="paragraph"/></style:style>
<style:style style:name="gr2" style:family="graphic" style:parent-style-name="Graphics">
<style:graphic-properties svg:stroke-width="0.02cm" svg:stroke-color="#000000" draw:fill="none" draw:textarea-vertical-align="middle"
 style:wrap="none" style:vertical-pos="from-top" style:vertical-rel="paragraph" style:horizontal-pos="from-left" style:horizontal-rel="paragraph"/></style:style>
<style:style style:name="fr1" style:family="graphic" style:parent-style-name="Graphics">
<style:graphic-properties style:wrap="none" style:vertical-pos="top" style:vertical-rel="baseline" style:horizontal-pos="center" style:horizontal-rel="paragraph"/></style:style>
<style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin-top="1.5cm"
 fo:margin-bottom="1.5cm" fo:margin-left="2.5cm" fo:margin-right="2.5cm"/>
<style:header-style><style:header-footer-properties fo:min-height="0.6cm" fo:margin-bottom="0.4cm"/></style:header-style>
<style:footer-style><style:header-footer-properties fo:min-height="0.6cm" fo:margin-top="0.4cm"/></style:footer-style></style:page-layout>
</office:automatic-styles>"""


def _odf_inline(text: str, notes: list[int], endnotes: bool = False) -> str:
    """Inline runs as ODF; with `endnotes`, every second note is an endnote (numbered i, ii … as Word and
    LibreOffice number them), the others footnotes: a document holding both kinds."""
    out = []
    for kind, content in runs(text):
        if kind == "text":
            out.append(escape(content))
        elif kind in ("sup", "sub"):
            out.append(f'<text:span text:style-name="T{kind}">{escape(content)}</text:span>')
        else:
            notes.append(len(notes) + 1)
            number = len(notes)
            if endnotes and number % 2 == 0:
                roman = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii"][number // 2 - 1]
                out.append(
                    f'<text:note text:id="edn{number}" text:note-class="endnote"><text:note-citation>{roman}</text:note-citation>'
                    f'<text:note-body><text:p text:style-name="Endnote">{escape(content)}</text:p></text:note-body></text:note>'
                )
                continue
            label = (number + 1) // 2 if endnotes else number
            out.append(
                f'<text:note text:id="ftn{number}" text:note-class="footnote"><text:note-citation>{label}</text:note-citation>'
                f'<text:note-body><text:p text:style-name="Footnote">{escape(content)}</text:p></text:note-body></text:note>'
            )
    return "".join(out)


def _odf_shapes(labels: list[str]) -> str:
    """A beam on two supports under a load, with labels: shapes anchored to an empty paragraph that makes room for them."""
    left, right = labels[0], labels[1]
    return (
        '<text:p text:style-name="Pcentre">'
        '<draw:rect draw:style-name="gr1" text:anchor-type="paragraph" svg:x="2cm" svg:y="1.6cm" svg:width="12cm" svg:height="0.6cm"/>'
        '<draw:custom-shape draw:style-name="gr1" text:anchor-type="paragraph" svg:x="2.2cm" svg:y="2.2cm" svg:width="0.8cm" svg:height="0.7cm">'
        '<draw:enhanced-geometry draw:type="isosceles-triangle"/></draw:custom-shape>'
        '<draw:custom-shape draw:style-name="gr1" text:anchor-type="paragraph" svg:x="13cm" svg:y="2.2cm" svg:width="0.8cm" svg:height="0.7cm">'
        '<draw:enhanced-geometry draw:type="isosceles-triangle"/></draw:custom-shape>'
        + "".join(
            f'<draw:line draw:style-name="gr2" text:anchor-type="paragraph" svg:x1="{2.5 + 1.5 * k}cm" svg:y1="0.6cm" svg:x2="{2.5 + 1.5 * k}cm" svg:y2="1.55cm"/>'
            for k in range(8)
        )
        + f'<draw:rect draw:style-name="gr2" text:anchor-type="paragraph" svg:x="5.5cm" svg:y="0cm" svg:width="5cm" svg:height="0.55cm"><text:p>{escape(labels[2])}</text:p></draw:rect>'
        f'<draw:rect draw:style-name="gr2" text:anchor-type="paragraph" svg:x="1cm" svg:y="3cm" svg:width="3cm" svg:height="0.55cm"><text:p>{escape(left)}</text:p></draw:rect>'
        f'<draw:rect draw:style-name="gr2" text:anchor-type="paragraph" svg:x="12cm" svg:y="3cm" svg:width="3cm" svg:height="0.55cm"><text:p>{escape(right)}</text:p></draw:rect>'
        f'<draw:rect draw:style-name="gr2" text:anchor-type="paragraph" svg:x="6cm" svg:y="3cm" svg:width="4cm" svg:height="0.55cm"><text:p>{escape(labels[3])}</text:p></draw:rect>'
        "</text:p>" + "".join('<text:p text:style-name="Pkeep"/>' for _ in range(4))  # room for the shapes, kept with the caption
    )


def write_fodt(document: Document, endnotes: bool = False) -> str:
    """The document as flat ODF XML; with `endnotes`, every second note of the text is an endnote."""
    body: list[str] = []
    notes: list[int] = []
    first_heading = True
    contents = document.words["contents"]
    for block in document.blocks:
        if block.kind == "title":
            style = "Title" if block is document.blocks[0] else "Subtitle"
            body.append(f'<text:p text:style-name="{style}">{escape(block.text)}</text:p>')
        elif block.kind == "toc":
            templates = "".join(
                f'<text:table-of-content-entry-template text:outline-level="{level}" text:style-name="Contents_20_{level}">'
                "<text:index-entry-chapter/><text:index-entry-span> </text:index-entry-span><text:index-entry-text/>"
                '<text:index-entry-tab-stop style:type="right" style:leader-char="."/><text:index-entry-page-number/>'
                "</text:table-of-content-entry-template>"
                for level in (1, 2, 3)
            )
            body.append(
                '<text:table-of-content text:name="Contents1"><text:table-of-content-source text:outline-level="3">'
                f'<text:index-title-template text:style-name="Contents_20_Heading">{escape(contents)}</text:index-title-template>'
                f'{templates}</text:table-of-content-source><text:index-body><text:index-title text:name="Contents1_Head">'
                f'<text:p text:style-name="Contents_20_Heading">{escape(contents)}</text:p></text:index-title>'
                "</text:index-body></text:table-of-content>"
            )
        elif block.kind == "heading":
            style = (
                "Pbreak" if (first_heading or (block.level == 1 and block.number and not block.numbered)) else f"Heading_20_{block.level}"
            )
            first_heading = False
            header = "" if block.numbered else ' text:is-list-header="true"'
            body.append(
                f'<text:h text:style-name="{style}" text:outline-level="{block.level}"{header}>{_odf_inline(heading_text(block), notes)}</text:h>'
            )
        elif block.kind == "para":
            body.append(f'<text:p text:style-name="Text_20_body">{_odf_inline(block.text, notes, endnotes)}</text:p>')
        elif block.kind == "table":
            caption = f"{document.words['table']} {block.number} – "
            body.append(
                f'<text:p text:style-name="Table">{escape(caption)}{_odf_inline(block.text, notes)}</text:p>'
                f'<table:table table:name="{document.words["table"]}{block.number}" table:style-name="Tbl">'
                f'<table:table-column table:number-columns-repeated="{len(block.header)}"/>'
                "<table:table-header-rows><table:table-row>"
                + "".join(
                    f'<table:table-cell table:style-name="Cell" office:value-type="string"><text:p text:style-name="Table_20_Heading">{_odf_inline(cell, notes)}</text:p></table:table-cell>'
                    for cell in block.header
                )
                + "</table:table-row></table:table-header-rows>"
                + "".join(
                    "<table:table-row>"
                    + "".join(
                        f'<table:table-cell table:style-name="Cell" office:value-type="string"><text:p text:style-name="Table_20_Contents">{_odf_inline(cell, notes)}</text:p></table:table-cell>'
                        for cell in row
                    )
                    + "</table:table-row>"
                    for row in block.rows
                )
                + "</table:table>"
            )
        elif block.kind == "figure":
            if block.figure == "shapes":
                body.append(_odf_shapes(block.labels))
            else:
                data = base64.b64encode(png_plot()).decode()
                body.append(
                    '<text:p text:style-name="Pcentre"><draw:frame draw:style-name="fr1" text:anchor-type="as-char" svg:width="12cm" svg:height="6cm">'
                    f"<draw:image><office:binary-data>{data}</office:binary-data></draw:image></draw:frame></text:p>"
                )
            body.append(
                f'<text:p text:style-name="Figure">{escape(document.words["figure"])} {block.number} – {_odf_inline(block.text, notes)}</text:p>'
            )
    header = f'<style:header><text:p text:style-name="Header">{escape(document.code)}:2026</text:p></style:header>'
    footer = '<style:footer><text:p text:style-name="Footer"><text:page-number text:select-page="current">1</text:page-number></text:p></style:footer>'
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document {_NS} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">'
        f"<office:meta><dc:title>{escape(document.code)} – {escape(document.title)}</dc:title><dc:language>{document.language}</dc:language></office:meta>"
        f"{_styles(document.language)}"
        f'<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1">{header}{footer}</style:master-page></office:master-styles>'
        f"<office:body><office:text>{''.join(body)}</office:text></office:body></office:document>\n"
    )


# -- HTML for Chromium ----------------------------------------------------------------------------


def _html_inline(text: str, notes: list[str], counter: list[int] | None = None) -> str:
    out = []
    for kind, content in runs(text):
        if kind == "text":
            out.append(html_escape(content, quote=False).replace("\u00ad", "&shy;"))
        elif kind in ("sup", "sub"):
            out.append(f"<{kind}>{html_escape(content, quote=False)}</{kind}>")
        else:
            notes.append(content)
            if counter is not None:
                counter[0] += 1
            out.append(f"<sup>{counter[0] if counter is not None else len(notes)}</sup>")
    return "".join(out)


_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="460" height="150" viewBox="0 0 460 150">
<rect x="40" y="60" width="380" height="18" fill="#d9d9d9" stroke="#000"/>
<polygon points="52,78 40,100 64,100" fill="#d9d9d9" stroke="#000"/><polygon points="408,78 396,100 420,100" fill="#d9d9d9" stroke="#000"/>
{arrows}<text x="230" y="16" text-anchor="middle" font-size="13" font-family="Liberation Sans">{load}</text>
<text x="52" y="122" text-anchor="middle" font-size="13" font-family="Liberation Sans">{left}</text>
<text x="408" y="122" text-anchor="middle" font-size="13" font-family="Liberation Sans">{right}</text>
<text x="230" y="122" text-anchor="middle" font-size="13" font-family="Liberation Sans">{span}</text></svg>"""


def write_html(document: Document, outline_in_toc: bool = True) -> str:
    """The document as one HTML page (A4 print styles), the same blocks as the ODF."""
    body: list[str] = []
    headings = [block for block in document.blocks if block.kind == "heading"]
    counter = [0]  # footnotes are numbered through the document (only paragraphs carry them)
    for block in document.blocks:
        notes: list[str] = []
        if block.kind == "title":
            tag = "p class=title" if block is document.blocks[0] else "p class=subtitle"
            body.append(f"<{tag}>{html_escape(block.text)}</p>")
        elif block.kind == "toc":
            items = "".join(
                f'<li class="l{h.level}">{html_escape((h.number + " ") if h.numbered else "")}{html_escape(plain(heading_text(h)))}</li>'
                for h in headings
            )
            body.append(f'<nav><h2 class="toc">{html_escape(block.text)}</h2><ul>{items}</ul></nav>')
        elif block.kind == "heading":
            prefix = f"{block.number} " if block.numbered else ""
            cls = ' class="break"' if block.level == 1 else ""
            body.append(f"<h{block.level}{cls}>{html_escape(prefix)}{_html_inline(heading_text(block), notes)}</h{block.level}>")
        elif block.kind == "para":
            body.append(f"<p>{_html_inline(block.text, notes, counter)}</p>")
        elif block.kind == "table":
            head = "".join(f"<th>{_html_inline(cell, notes)}</th>" for cell in block.header)
            rows = "".join("<tr>" + "".join(f"<td>{_html_inline(cell, notes)}</td>" for cell in row) + "</tr>" for row in block.rows)
            body.append(
                f'<p class="caption">{html_escape(document.words["table"])} {block.number} – {_html_inline(block.text, notes)}</p>'
                f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
            )
        elif block.kind == "figure":
            if block.figure == "shapes":
                arrows = "".join(f'<line x1="{60 + 48 * k}" y1="24" x2="{60 + 48 * k}" y2="58" stroke="#000"/>' for k in range(8))
                left, right, load, span = (html_escape(label) for label in block.labels)
                body.append(f'<div class="figure">{_SVG.format(arrows=arrows, load=load, left=left, right=right, span=span)}</div>')
            else:
                data = base64.b64encode(png_plot()).decode()
                body.append(f'<div class="figure"><img src="data:image/png;base64,{data}" width="460" height="230" alt=""></div>')
            body.append(
                f'<p class="caption">{html_escape(document.words["figure"])} {block.number} – {_html_inline(block.text, notes)}</p>'
            )
        for number, note in enumerate(notes, start=counter[0] - len(notes) + 1):  # right after its paragraph, in small type
            body.append(f'<p class="note"><sup>{number}</sup> {html_escape(note)}</p>')
    style = """@page { size: A4; margin: 2cm 2.5cm; }
body { font-family: 'Liberation Serif'; font-size: 11pt; line-height: 1.3; text-align: justify; }
h1, h2, h3 { font-family: 'Liberation Sans'; } h1 { font-size: 16pt; } h2 { font-size: 14pt; } h3 { font-size: 12pt; }
h1.break { break-before: page; } .title { font-size: 24pt; text-align: center; font-weight: bold; margin-top: 6cm; }
.subtitle { font-size: 14pt; text-align: center; } nav { break-before: page; } nav ul { list-style: none; padding: 0; }
nav li.l2 { margin-left: 1em; } nav li.l3 { margin-left: 2em; }
table { border-collapse: collapse; width: 100%; font-size: 10pt; } td, th { border: 0.5pt solid #000; padding: 3pt; text-align: left; vertical-align: top; }
.caption { font-style: italic; font-size: 10pt; } .figure { text-align: center; } .note { font-size: 8pt; }"""
    return (
        f'<!DOCTYPE html><html lang="{document.language}"><head><meta charset="utf-8"><title>{html_escape(document.code)} – '
        f"{html_escape(document.title)}</title><style>{style}</style></head><body>{''.join(body)}</body></html>\n"
    )


# -- the truth ------------------------------------------------------------------------------------


def truth(document: Document) -> dict:
    """What an import should find, from the source blocks alone."""
    tree = []
    tables = []
    figures = []
    scripts: list[tuple[str, str, str]] = []
    notes: list[str] = []
    nbsp: list[str] = []
    for block in document.blocks:
        texts = [block.text, *block.header, *(cell for row in block.rows for cell in row)]
        for text in texts:
            previous = ""
            for kind, content in runs(text):
                if kind in ("sup", "sub"):
                    base = re.search(r"[\w,]+$", previous)
                    scripts.append((kind, base.group(0) if base else "", content))
                elif kind == "note":
                    notes.append(content)
                previous = content if kind == "text" else previous + content
            for match in re.finditer(r"(\w+)\u00a0([:;])", plain(text)):
                nbsp.append(f"{match.group(1)}\u00a0{match.group(2)}")
        if block.kind == "heading":
            title = block.text.split(" – ", 1)[1] if block.number and block.number.startswith(("Anhang", "Annex")) else block.text
            tree.append({"path": block.number or title, "title": plain(title), "level": block.level})
        elif block.kind == "table":
            tables.append(
                {
                    "number": block.number,
                    "caption": f"{document.words['table']} {block.number} – {plain(block.text)}",
                    "header": [plain(cell) for cell in block.header],
                    "rows": [[plain(cell) for cell in row] for row in block.rows],
                }
            )
        elif block.kind == "figure":
            figures.append({"number": block.number, "caption": plain(block.text), "kind": block.figure, "labels": block.labels})
    return {
        "document": document.key,
        "language": document.language,
        "code": document.code,
        "contents": document.words["contents"],
        "tree": tree,
        "tables": tables,
        "figures": figures,
        "scripts": scripts,
        "footnotes": notes,
        "nbsp": sorted(set(nbsp)),
        "hyphenated": document.hyphenated,
        "soft": document.soft,
    }


def pages_from_outline(pdf: Path, tree: list[dict]) -> dict[str, int] | None:
    """The PDF page (1-based) of each heading, read from the bookmarks of a PDF that has them (in order)."""
    try:
        import pypdfium2 as pdfium
    except ImportError:
        return None
    document = pdfium.PdfDocument(str(pdf))
    try:
        marks = []
        for bookmark in document.get_toc(max_depth=8):
            dest = bookmark.get_dest()
            marks.append(((bookmark.get_title() or "").strip(), dest.get_index() + 1 if dest is not None else None))
    finally:
        document.close()
    found: dict[str, int] = {}
    k = 0
    for entry in tree:
        key = re.sub(r"\W+", "", entry["title"].lower())
        while k < len(marks) and key not in re.sub(r"\W+", "", marks[k][0].lower()):
            k += 1
        if k < len(marks) and marks[k][1]:
            found[entry["path"]] = marks[k][1]
            k += 1
    return found


# -- the producers --------------------------------------------------------------------------------

_PROFILE = "file://" + str(Path(tempfile.gettempdir()) / "normcli-producers-lo-profile")


def _uno_convert(sources: list[Path]) -> None:
    """Open each flat ODF in LibreOffice, fill its table of contents and fields, save it as .odt and .docx."""
    import uno  # python3-uno, with the system Python
    from com.sun.star.beans import PropertyValue  # type: ignore[import-not-found]

    port = 2100 + os.getpid() % 500
    office = subprocess.Popen(
        [
            "soffice",
            "--headless",
            "--invisible",
            "--norestore",
            f"-env:UserInstallation={_PROFILE}",
            f"--accept=socket,host=127.0.0.1,port={port};urp;",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def prop(name: str, value: object) -> PropertyValue:
        item = PropertyValue()
        item.Name, item.Value = name, value
        return item

    try:
        resolver = uno.getComponentContext().ServiceManager.createInstanceWithContext(
            "com.sun.star.bridge.UnoUrlResolver", uno.getComponentContext()
        )
        for _ in range(60):
            try:
                context = resolver.resolve(f"uno:socket,host=127.0.0.1,port={port};urp;StarOffice.ComponentContext")
                break
            except Exception:  # LibreOffice is still starting
                time.sleep(1)
        else:
            raise RuntimeError("LibreOffice did not start")
        desktop = context.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", context)
        for source in sources:
            doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(str(source)), "_blank", 0, (prop("Hidden", True),))
            doc.getTextFields().refresh()
            indexes = doc.getDocumentIndexes()
            for _ in range(2):  # twice: the contents' own length may move the pages it lists
                for k in range(indexes.getCount()):
                    indexes.getByIndex(k).update()
            stem = source.with_suffix("")
            doc.storeToURL(uno.systemPathToFileUrl(str(stem) + ".odt"), (prop("FilterName", "writer8"),))
            doc.storeToURL(uno.systemPathToFileUrl(str(stem) + ".docx"), (prop("FilterName", "MS Word 2007 XML"),))
            doc.close(True)
        desktop.terminate()
    finally:
        try:
            office.wait(timeout=20)
        except subprocess.TimeoutExpired:
            office.kill()


def _soffice_pdf(source: Path, target: Path, bookmarks: bool) -> None:
    """`soffice --headless --convert-to pdf`, with the export filter's ExportBookmarks option."""
    options = json.dumps({"ExportBookmarks": {"type": "boolean", "value": "true" if bookmarks else "false"}})
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(
            ["soffice", "--headless", "--norestore", f"-env:UserInstallation={_PROFILE}", "--convert-to", f"pdf:writer_pdf_Export:{options}",
             "--outdir", folder, str(source)],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=300,
        )  # fmt: skip
        shutil.move(str(Path(folder) / (source.stem + ".pdf")), target)


def _chromium_pdf(html: Path, target: Path, outline: bool) -> bool:
    """Print the HTML page with headless Chromium; False when Chromium is not installed."""
    binary = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if binary is None:
        return False
    with tempfile.TemporaryDirectory() as profile:
        command = [binary, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}", "--no-pdf-header-footer",
                   f"--print-to-pdf={target}"]  # fmt: skip
        if outline:
            command.append("--generate-pdf-document-outline")
        subprocess.run([*command, html.resolve().as_uri()], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
    return True


# -- other producers: FOP and dblatex (DocBook), groff (-ms), pandoc (LaTeX), HTML printers ----------------

_DOCBOOK_XSL = Path("/usr/share/xml/docbook/stylesheet/docbook-xsl/fo/docbook.xsl")
_APPENDIX = {"de": "Anhang", "fr": "Annexe", "en": "Appendix"}  # the word the DocBook stylesheets print
# which documents are set as a DocBook book (chapters) and which as an article (numbered sections)
_DOCBOOK_ROOT = {"timber-de": "book", "facade-fr": "article", "drainage-en": "book"}


def _quiet(command: list[str], cwd: Path, **kwargs) -> None:
    subprocess.run(
        command, cwd=cwd, check=True, stdout=kwargs.pop("stdout", subprocess.DEVNULL), stderr=subprocess.DEVNULL, timeout=900, **kwargs
    )


def _docbook_root(document: Document) -> str:
    return _DOCBOOK_ROOT.get(document.key.split("-small")[0].split("-v")[0], "book")


def _fop_pdfs(document: Document, out: Path) -> dict[str, Path]:
    """DocBook → XSL-FO (xsltproc, the DocBook XSL stylesheets) → PDF (Apache FOP), with and without bookmarks."""
    if not (shutil.which("fop") and shutil.which("xsltproc") and _DOCBOOK_XSL.exists()):
        return {}
    source = out / f"{document.key}.docbook.xml"
    source.write_text(write_docbook(document, _docbook_root(document), "svg"), encoding="utf-8")
    outputs = {}
    for bookmarks in (True, False):
        fo = out / f"{document.key}.fo"
        params = {"paper.type": "A4", "section.autolabel": "1", "section.label.includes.component.label": "1",
                  "fop1.extensions": "1" if bookmarks else "0", "hyphenate": "true", "body.font.master": "10"}  # fmt: skip
        command = ["xsltproc", "--nonet", "--output", str(fo)]
        for name, value in params.items():
            command += ["--stringparam", name, value]
        _quiet([*command, str(_DOCBOOK_XSL), str(source)], out)
        target = out / f"{document.key}-fop.fop{'' if bookmarks else '-nobookmarks'}.pdf"
        _quiet(["fop", "-fo", str(fo), "-pdf", str(target)], out)
        fo.unlink()
        outputs[target.name] = target
    return outputs


def _dblatex_pdf(document: Document, out: Path) -> dict[str, Path]:
    """DocBook → LaTeX → PDF with dblatex (its own stylesheets, pdfTeX, hyperref bookmarks)."""
    if not shutil.which("dblatex"):
        return {}
    source = out / f"{document.key}.dblatex.xml"
    source.write_text(write_docbook(document, _docbook_root(document), "pdf"), encoding="utf-8")
    target = out / f"{document.key}-dblatex.dblatex.pdf"
    _quiet(["dblatex", "-q", "-P", "latex.babel.language=" + {"de": "ngerman", "fr": "french", "en": "english"}[document.language],
            "-P", "doc.lot.show=", "-o", str(target), str(source)], out)  # fmt: skip
    return {target.name: target}


def _groff_pdfs(document: Document, out: Path) -> dict[str, Path]:
    """groff -ms with tbl and pic: `-Tpdf` (gropdf), and `-Tps` then Ghostscript's `ps2pdf`."""
    if not shutil.which("groff"):
        return {}
    source = out / f"{document.key}.ms"
    source.write_text(write_ms(document), encoding="utf-8")
    outputs = {}
    target = out / f"{document.key}.gropdf.pdf"
    with target.open("wb") as sink:
        _quiet(["groff", "-k", "-t", "-p", "-ms", "-mpdf", "-Tpdf", "-P-pa4", "-dpaper=a4", str(source)], out, stdout=sink)
    outputs[target.name] = target
    if shutil.which("ps2pdf"):
        postscript = out / f"{document.key}.ps"
        with postscript.open("wb") as sink:
            _quiet(["groff", "-k", "-t", "-p", "-ms", "-mpdfmark", "-Tps", "-P-pa4", "-dpaper=a4", str(source)], out, stdout=sink)
        target = out / f"{document.key}.ps2pdf.pdf"
        _quiet(["ps2pdf", "-sPAPERSIZE=a4", str(postscript), str(target)], out)
        postscript.unlink()
        outputs[target.name] = target
    return outputs


def _pandoc_pdf(document: Document, out: Path) -> dict[str, Path]:
    """pandoc Markdown → LaTeX → PDF (pdfTeX): `--number-sections`, `--toc`, booktabs tables, footnotes."""
    if not (shutil.which("pandoc") and shutil.which("pdflatex")):
        return {}
    source = out / f"{document.key}.md"
    source.write_text(write_markdown(document, latex=True), encoding="utf-8")
    target = out / f"{document.key}.pandoc-latex.pdf"
    _quiet(["pandoc", str(source), "--number-sections", "--toc", "-V", "papersize=a4", "-V", "geometry:margin=2.5cm",
            "-V", "colorlinks=false", "--pdf-engine=pdflatex", "-o", str(target)], out)  # fmt: skip
    return {target.name: target}


def _html_printers(document: Document, out: Path) -> dict[str, Path]:
    """The HTML of `write_html` printed by WeasyPrint and by wkhtmltopdf (Qt WebKit), where installed."""
    html = out / f"{document.key}.html"
    outputs = {}
    if shutil.which("weasyprint"):
        target = out / f"{document.key}.weasyprint.pdf"
        _quiet(["weasyprint", html.name, str(target)], out)
        outputs[target.name] = target
    if shutil.which("wkhtmltopdf"):
        target = out / f"{document.key}.wkhtmltopdf.pdf"
        _quiet(["wkhtmltopdf", "--quiet", "--enable-local-file-access", "-s", "A4", html.name, str(target)], out)
        outputs[target.name] = target
    return outputs


def producer_truth(facts: dict, document: Document, producer: str) -> dict:
    """The truth as the DocBook stylesheets print the document: in a book, tables and figures are numbered per
    chapter (`Table 2.1`, `Figure A.1` in the annex), in an article one after another (FOP: `A.1` in the annex); the annex is
    `Appendix A` / `Anhang A` / `Annexe A` in a book and `A` in an article; dblatex numbers the bibliography
    as the next chapter (or section) and sets it before the appendix."""
    root = _docbook_root(document)
    chapter, last, counts, numbers = "", 0, {}, {"table": [], "figure": []}
    for block in document.blocks:
        if block.kind == "heading" and block.numbered and block.level == 1:
            chapter = last = int(block.number or 0) or last
            chapter = str(chapter)
        elif block.kind == "heading" and block.number and block.number.startswith(("Anhang", "Annex")):
            chapter = "A"
        elif block.kind in numbers:
            counts[(block.kind, chapter)] = counts.get((block.kind, chapter), 0) + 1
            sequential = len(numbers[block.kind]) + 1
            per_chapter = root == "book" or (producer == "fop" and chapter == "A")  # FOP numbers an article's annex A.1
            numbers[block.kind].append(f"{chapter}.{counts[(block.kind, chapter)]}" if per_chapter else str(sequential))
    for kind, key in (("table", "tables"), ("figure", "figures")):
        for entry, number in zip(facts[key], numbers[kind], strict=True):
            entry["number"] = number
    tree = facts["tree"]
    for entry in tree:
        if entry["path"].startswith(("Anhang ", "Annex ", "Annexe ")):
            entry["path"] = f"{_APPENDIX[document.language]} A" if root == "book" else "A"
    if producer == "dblatex":
        bibliography = tree.pop()
        bibliography["path"] = str(last + 1)
        annex = next(k for k, entry in enumerate(tree) if entry["path"] in ("A", f"{_APPENDIX[document.language]} A"))
        tree.insert(annex, bibliography)
    return facts


def _asciidoctor_pdf(document: Document, out: Path) -> dict[str, Path]:
    """AsciiDoc → PDF with asciidoctor-pdf (Prawn), its outline included."""
    if not shutil.which("asciidoctor-pdf"):
        return {}
    source = out / f"{document.key}.adoc"
    source.write_text(write_asciidoc(document), encoding="utf-8")
    target = out / f"{document.key}-adoc.asciidoctor.pdf"
    _quiet(["asciidoctor-pdf", "-a", "pdf-page-size=A4", "-o", str(target), str(source)], out)
    return {target.name: target}


def asciidoc_truth(facts: dict, document: Document) -> dict:
    """The truth as asciidoctor-pdf prints the annex: `Annex A: Title` (path `Annex A`, `Anhang A`, `Annexe A`)."""
    word = {"de": "Anhang", "fr": "Annexe", "en": "Annex"}[document.language]
    for entry in facts["tree"]:
        if entry["path"].startswith(("Anhang ", "Annex ", "Annexe ")):
            entry["path"] = f"{word} {entry['path'].split()[-1]}"
    return facts


OTHER_PRODUCERS = {
    "fop": _fop_pdfs,
    "dblatex": _dblatex_pdf,
    "groff": _groff_pdfs,
    "pandoc": _pandoc_pdf,
    "html": _html_printers,
    "asciidoctor": _asciidoctor_pdf,
}


_VARIANT = [
    ("Liberation Serif", "DejaVu Sans Body"),
    ("Liberation Sans", "DejaVu Serif"),
    ("DejaVu Sans Body", "DejaVu Sans"),
    ('fo:font-size="11pt"', 'fo:font-size="10pt"'),
    ("font-size: 11pt", "font-size: 10pt"),
    ('fo:page-width="21cm" fo:page-height="29.7cm"', 'fo:page-width="21.59cm" fo:page-height="27.94cm"'),
    ("size: A4", "size: letter"),
    ('fo:font-style="italic"', 'fo:font-style="normal"'),
]


def main(argv: list[str] | None = None) -> int:
    """Write the documents, their PDFs and truth files into OUT."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--small", action="store_true", help="the 3–5 page versions (the test fixtures)")
    parser.add_argument("--only", action="append", default=[], help="only these documents (keys of content.SPECS)")
    parser.add_argument("--no-chromium", action="store_true")
    parser.add_argument("--variant", type=int, default=0, help="other sentences and another look (fonts, size, page)")
    parser.add_argument(
        "--producers",
        default="office,chromium",
        help=f"comma-separated: office (LibreOffice), office-endnotes (LibreOffice, half the notes endnotes), chromium, {', '.join(OTHER_PRODUCERS)} (default: office,chromium)",
    )
    args = parser.parse_args(argv)
    producers = {name.strip() for name in args.producers.split(",") if name.strip()}
    if args.no_chromium:
        producers.discard("chromium")
    args.out.mkdir(parents=True, exist_ok=True)
    documents = [build(key, "small" if args.small else "full", args.variant) for key in (args.only or SPECS)]
    sources = []
    for document in documents:
        source = args.out / f"{document.key}.fodt"
        fodt, html = write_fodt(document), write_html(document)
        if args.variant:  # another look: sans-serif body in 10 pt under serif headings, on US Letter
            for old, new in _VARIANT:
                fodt, html = fodt.replace(old, new), html.replace(old, new)
        if "office" in producers:
            source.write_text(fodt, encoding="utf-8")
            sources.append(source)
        if "office-endnotes" in producers:  # footnotes and endnotes in one document, as Word users write them
            mixed = args.out / f"{document.key}-endnotes.fodt"
            text = write_fodt(document, endnotes=True)
            for old, new in _VARIANT if args.variant else []:
                text = text.replace(old, new)
            mixed.write_text(text, encoding="utf-8")
            sources.append(mixed)
        (args.out / f"{document.key}.html").write_text(html, encoding="utf-8")
        figure_files(args.out, document, png_plot())
    if sources:
        _uno_convert(sources)
    for document in documents:
        stem = args.out / document.key
        outputs: dict[str, dict[str, Path]] = {
            document.key: {},
            f"{document.key}-fop": {},
            f"{document.key}-dblatex": {},
            f"{document.key}-adoc": {},
            f"{document.key}-endnotes": {},
        }
        if "office-endnotes" in producers:
            for fmt, bookmarks in (("odt", True), ("docx", True), ("odt", False)):
                mixed = args.out / f"{document.key}-endnotes.{fmt}"
                target = args.out / f"{document.key}-endnotes.{fmt}{'' if bookmarks else '-nobookmarks'}.pdf"
                _soffice_pdf(mixed, target, bookmarks)
                outputs[f"{document.key}-endnotes"][target.name] = target
        if "office" in producers:
            for fmt in ("odt", "docx"):
                for bookmarks in (True, False):
                    target = args.out / f"{document.key}.{fmt}{'' if bookmarks else '-nobookmarks'}.pdf"
                    _soffice_pdf(stem.with_suffix(f".{fmt}"), target, bookmarks)
                    outputs[document.key][target.name] = target
        if "chromium" in producers:
            for outline in (False, True):
                target = args.out / f"{document.key}.chromium{'-outline' if outline else ''}.pdf"
                if _chromium_pdf(stem.with_suffix(".html"), target, outline):
                    outputs[document.key][target.name] = target
        for name, make in OTHER_PRODUCERS.items():
            if name in producers:
                made = make(document, args.out)
                family = {"fop": "-fop", "dblatex": "-dblatex", "asciidoctor": "-adoc"}.get(name, "")
                outputs[document.key + family].update(made)
        for family, made in outputs.items():
            if not made:
                continue
            facts = truth(document)
            facts["document"] = family
            if family.endswith(("-fop", "-dblatex")):
                facts = producer_truth(facts, document, family.rsplit("-", 1)[1])
            elif family.endswith("-adoc"):
                facts = asciidoc_truth(facts, document)
            facts["pages"] = {}
            for name in made:
                twin = name.replace("-nobookmarks.pdf", ".pdf") if name.replace("-nobookmarks.pdf", ".pdf") in made else name
                twin = f"{document.key}.chromium-outline.pdf" if name == f"{document.key}.chromium.pdf" else twin
                if twin in made:
                    pages = pages_from_outline(made[twin], facts["tree"])
                    if pages:
                        facts["pages"][name] = pages
            truth_file = args.out / f"{family}.truth.json"
            if truth_file.exists():  # the same document made by other producers before: their pages are kept
                before = json.loads(truth_file.read_text(encoding="utf-8"))
                now = json.loads(json.dumps(facts))
                if {k: v for k, v in before.items() if k != "pages"} == {k: v for k, v in now.items() if k != "pages"}:
                    facts["pages"] = {**before.get("pages", {}), **facts["pages"]}
            truth_file.write_text(json.dumps(facts, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
            print(f"{family}: {', '.join(sorted(made))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
