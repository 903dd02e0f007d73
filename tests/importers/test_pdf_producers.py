"""PDFs as other producers write them (dvips with Distiller or Ghostscript, gropdf …), made by the tests."""

from __future__ import annotations

from pathlib import Path

from importer_helpers import read_back

from normcli.importers import ingest


def _scaled_font_pdf(path: Path, lines: list[tuple[float, float, str, str]]) -> Path:
    """A PDF whose text is set as dvips and Distiller write it: a 1 pt font scaled by the text matrix."""
    content = "".join(
        f"BT /{font} 1 Tf {size} 0 0 {size} 72 {y} Tm ({text}) Tj ET\n" for size, y, text, font in [(s, y, t, f) for s, y, t, f in lines]
    ).encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R"
        b" /Resources << /Font << /R << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
        b" /B << /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >> >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"endstream",
    ]
    data = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(data))
        data += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    start = len(data)
    data += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    data += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    data += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, start)
    path.write_bytes(bytes(data))
    return path


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
