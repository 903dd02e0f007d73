"""PDFs as other producers write them (dvips with Distiller or Ghostscript, gropdf …), made by the tests."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
from importer_helpers import norm_text, pdf_of_objects, read_back

from normcli.importers import ingest, pdf_pages


def _scaled_font_pdf(path: Path, lines: list[tuple[float, float, str, str]]) -> Path:
    """A PDF whose text is set as dvips and Distiller write it: a 1 pt font scaled by the text matrix."""
    content = "".join(
        f"BT /{font} 1 Tf {size} 0 0 {size} 72 {y} Tm ({text}) Tj ET\n" for size, y, text, font in [(s, y, t, f) for s, y, t, f in lines]
    ).encode("latin-1")
    return _one_page_pdf(path, content)


def _one_page_pdf(path: Path, content: bytes) -> Path:
    """A one-page PDF of this content stream, with Helvetica as /R and Helvetica-Bold as /B."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R"
        b" /Resources << /Font << /R << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
        b" /B << /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >> >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"endstream",
    ]
    return pdf_of_objects(path, objects)


def test_a_one_point_font_scaled_by_the_text_matrix_has_its_printed_size(workspace: Path, tmp_path: Path) -> None:
    body = "The text of this clause is set in ten point type like the rest of the body here."
    lines = [(16, 760, "1 Scope", "R"), (10, 740, body, "R"), (10, 727, body, "R"), (13, 700, "1.1 Terms", "R"), (10, 680, body, "R")]
    lines += [(16, 650, "2 Requirements", "R"), (10, 630, body, "R"), (13, 600, "2.1 General", "R"), (10, 580, body, "R")]
    pdf = _scaled_font_pdf(tmp_path / "scaled.pdf", lines)
    report = ingest(pdf, "TEST 126", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert [(node.path, node.title) for node in bundle.nodes] == [
        ("1", "Scope"),
        ("1.1", "Terms"),
        ("2", "Requirements"),
        ("2.1", "General"),
    ]


def test_text_drawn_under_a_scaled_page_matrix_has_its_printed_size(workspace: Path, tmp_path: Path) -> None:
    """Qt (wkhtmltopdf) draws its pages at 0.576 and WeasyPrint at 0.75: PDFium reads the font size before that
    scale, while boxes and baselines are after it. Every rule sees the printed size: a superscript one size
    smaller raised a sixth of an em (as Qt sets `<sup>`) is one, headings are larger than the text."""
    scale = 0.576
    body = "The text of this clause is set in ten point type like the rest of the body here."
    # (printed size, x, baseline, text, font)
    runs = [(16, 72, 760, "1 Scope", "B"), (10, 72, 740, body, "R"), (10, 72, 727, "The area is at least 1.12 m", "R")]
    runs += [(8.46, 190.4, 728.6, "2", "R"), (10, 195.1, 727, " at any point of the drain and its outfall.", "R")]
    runs += [
        (10, 72, 714, "A rate of 10", "R"),
        (7, 123.7, 717, "9", "R"),
        (10, 127.6, 714, " units per hour is assumed for the flow.", "R"),
    ]
    runs += [(13, 72, 690, "1.1 Terms", "B"), (10, 72, 670, body, "R"), (16, 72, 640, "2 Requirements", "B"), (10, 72, 620, body, "R")]
    content = f"q {scale} 0 0 {scale} 0 0 cm\n" + "".join(
        f"BT /{font} {size / scale:.3f} Tf {x / scale:.3f} {y / scale:.3f} Td ({text}) Tj ET\n" for size, x, y, text, font in runs
    )
    pdf = _one_page_pdf(tmp_path / "qt.pdf", (content + "Q\n").encode("latin-1"))
    document = pdfium.PdfDocument(str(pdf))
    lines, _ = pdf_pages._page_lines(document[0].get_textpage(), 0)
    sizes = {line.text.split()[0]: line.size for line in lines}
    assert (sizes["1"], sizes["1.1"], sizes["The"]) == (16.0, 13.0, 10.0), sizes
    document.close()
    for use_outline in (True, False):
        report = ingest(pdf, "TEST 140", str(int(use_outline) + 1), workspace=workspace, language="en", use_outline=use_outline)
        text = norm_text(workspace, report)
        assert "1.12 m² at any point" in text and "10⁹ units" in text, text
        assert [node.path for node in read_back(workspace, report).nodes] == ["1", "1.1", "2"]


def test_a_font_widened_or_narrowed_line_by_line_keeps_its_size(tmp_path: Path) -> None:
    """Font expansion (microtype) and `Tz` scale the text horizontally, line by line: the size is the height of the
    text, so lines of one paragraph keep one size (the body size and every comparison with it hold)."""
    body = "The text of this clause is set in ten point type like the rest of the body here."
    content = "".join(f"BT /R 1 Tf {width} 0 0 10 72 {y} Tm ({body}) Tj ET\n" for width, y in [(9.7, 700), (10.3, 687), (10.0, 674)])
    pdf = _one_page_pdf(tmp_path / "expanded.pdf", content.encode("latin-1"))
    document = pdfium.PdfDocument(str(pdf))
    lines, _ = pdf_pages._page_lines(document[0].get_textpage(), 0)
    assert [line.size for line in lines] == [10.0, 10.0, 10.0]
    document.close()


def test_line_numbers_in_the_margin_are_not_text_nor_clause_numbers(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A draft for review numbers every line in the margin: `12 4.1 Loads` is clause 4.1, not clause 12."""
    builder = pdf_builder().page()
    body = "The text of this clause goes on over a full line of words like the body of a norm."
    rows = [("h", "3 Actions"), ("b", body), ("b", body), ("h", "3.1 Permanent actions"), ("b", body), ("b", body)]
    rows += [("b", body), ("h", "3.2 Variable actions"), ("b", body), ("b", body), ("h", "4 Resistance"), ("b", body), ("b", body)]
    for number, (kind, text) in enumerate(rows, start=11):
        if kind == "h":
            size = 16 if "." not in text.split()[0] else 13
            builder.heading(text, level=0 if size == 16 else 1)
            baseline = builder.y - size * 0.8
        else:
            builder.line(text)
            baseline = builder.y
        builder.pdf.set_font("Helvetica", "", 7)
        builder.pdf.text(52 - 3.9 * len(str(number)), baseline, str(number))  # right-aligned in the margin
    pdf = builder.save(tmp_path / "numbered-lines.pdf")
    report = ingest(pdf, "TEST 127", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert [(node.path, node.title) for node in bundle.nodes] == [
        ("3", "Actions"),
        ("3.1", "Permanent actions"),
        ("3.2", "Variable actions"),
        ("4", "Resistance"),
    ]
    assert f"\n{body} {body}\n" in norm_text(workspace, report)  # no line number left inside the paragraph


def test_a_short_contents_then_the_full_one_both_anchor_the_tree(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """memoir prints a short contents (`1 Scope · 3`, chapters only) before the full one: the full list is
    matched from the start again, so its sections set in small capitals at body size are found too."""
    chapters = ["Scope", "Requirements", "Actions", "Resistance"]
    sections = ["Terms", "Durability", "Snow loads", "Concrete"]
    builder = pdf_builder()
    builder.page().line("Short contents", size=16)
    for number, title in enumerate(chapters, start=1):
        builder.line(f"{number} {title} · {number + 2}", x=200)
    builder.page().line("Contents", size=16)
    for number, title in enumerate(chapters, start=1):
        builder.line(f"{number} {title} {'.' * 60} {number + 2}").line(f"{number}.1 {sections[number - 1]} {'.' * 60} {number + 2}")
    body = "The text of this clause goes on over a full line of words like the body of a norm."
    for number, title in enumerate(chapters, start=1):
        builder.page().heading(f"{number} {title}").line(body).line(body).line(body)
        builder.line(f"{number}.1 {sections[number - 1].upper()}", size=8).line(body).line(body).line(body)
    pdf = builder.save(tmp_path / "two-contents.pdf")
    report = ingest(pdf, "TEST 128", "1", workspace=workspace, language="en")
    paths = [node.path for node in read_back(workspace, report).nodes]
    assert [path for path in paths if path[0].isdigit()] == ["1", "1.1", "2", "2.1", "3", "3.1", "4", "4.1"], paths
