"""PDFs that go wrong in the ways real ones do: a clear one-line message or a correct import, never a
traceback and never a half-written bundle. Every PDF is generated here with fpdf2."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from importer_helpers import PdfBuilder, norm_text, png_bytes, read_back

from normcli.errors import InvalidArgument
from normcli.importers import ingest

EXPECTED = ["1", "1.1", "2", "2.1"]


def _norm(builder: PdfBuilder) -> PdfBuilder:
    builder.page().heading("1 Scope").line("This standard applies to the design of small examples for importers.")
    builder.heading("1.1 Terms", level=1).line("A term is defined here with enough words to be a real paragraph of text.")
    builder.page().heading("2 Requirements").line("The requirements of this standard are given in the clauses below here.")
    builder.heading("2.1 General", level=1).line("General requirements apply to every example that is imported by a tool.")
    return builder


def _visible(workspace: Path) -> list[str]:
    """What a reader of the workspace sees under norms/ (hidden scratch folders excluded)."""
    return sorted(path.relative_to(workspace).as_posix() for path in (workspace / "norms").rglob("*") if ".ingest-" not in path.as_posix())


def test_a_pdf_encrypted_with_a_user_password_is_refused_with_what_to_do(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = _norm(pdf_builder())
    builder.pdf.set_encryption(owner_password="owner", user_password="secret")
    pdf = builder.save(tmp_path / "locked.pdf")
    with pytest.raises(InvalidArgument, match="encrypted with a password") as raised:
        ingest(pdf, "TEST 100", "1", workspace=workspace, language="en")
    assert "decrypt" in (raised.value.hint or "")
    assert _visible(workspace) == []  # nothing written


def test_a_pdf_encrypted_without_a_user_password_imports(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = _norm(pdf_builder())
    builder.pdf.set_encryption(owner_password="owner")  # printing allowed, no password to open
    pdf = builder.save(tmp_path / "owner-only.pdf")
    report = ingest(pdf, "TEST 101", "1", workspace=workspace, language="en")
    assert [node.path for node in read_back(workspace, report).nodes] == EXPECTED


def test_a_broken_cross_reference_table_is_repaired(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    pdf = _norm(pdf_builder()).save(tmp_path / "good.pdf")
    data = pdf.read_bytes()
    broken = re.sub(rb"\d{10} 00000 n", b"0000000000 00000 n", data)  # every object offset wrong
    broken = re.sub(rb"startxref\s+\d+", b"startxref\n999999", broken)
    assert broken != data
    damaged = tmp_path / "broken-xref.pdf"
    damaged.write_bytes(broken)
    report = ingest(damaged, "TEST 102", "1", workspace=workspace, language="en")
    assert [node.path for node in read_back(workspace, report).nodes] == EXPECTED


def test_an_outline_pointing_to_missing_pages_is_reported_and_the_rest_imported(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    pdf = _norm(pdf_builder(outline=True)).save(tmp_path / "outline.pdf")
    data = pdf.read_bytes()
    # the last bookmark's destination names a page object that does not exist
    destinations = list(re.finditer(rb"/Dest \[(\d+) 0 R", data))
    assert len(destinations) == 4
    last = destinations[-1]
    damaged = tmp_path / "dangling.pdf"
    damaged.write_bytes(data[: last.start(1)] + b"9999" + data[last.end(1) :])
    report = ingest(damaged, "TEST 103", "1", workspace=workspace, language="en")
    paths = [node.path for node in read_back(workspace, report).nodes]
    assert paths[:3] == EXPECTED[:3]
    assert any("points to no page" in warning and "General" in warning for warning in report.warnings)


def test_an_outline_whose_every_bookmark_points_to_missing_pages_gives_way_to_the_text(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    data = _norm(pdf_builder(outline=True)).save(tmp_path / "outline.pdf").read_bytes()
    damaged, count = re.subn(rb"(/Dest \[)\d+( 0 R)", rb"\g<1>9999\g<2>", data)  # every destination names a missing page object
    assert count == len(EXPECTED)
    (tmp_path / "dangling.pdf").write_bytes(damaged)
    report = ingest(tmp_path / "dangling.pdf", "TEST 105", "1", workspace=workspace, language="en")
    assert [node.path for node in read_back(workspace, report).nodes] == EXPECTED
    assert not report.outline_used
    assert any("none of the outline's 4 bookmarks points to a page" in warning for warning in report.warnings)


def test_ctrl_c_after_the_bundle_is_in_place_says_it_was_written(
    pdf_builder, workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Interrupted while the report is made, the import has already moved the whole bundle into place: the
    interruption says so (a user would otherwise import again and be told the edition exists)."""
    import normcli.importers as importers
    from normcli.cli.diagnostics import describe, exit_code_for

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(importers, "_quality", interrupted)
    pdf = _norm(pdf_builder()).save(tmp_path / "norm.pdf")
    with pytest.raises(KeyboardInterrupt) as raised:
        ingest(pdf, "TEST 106", "1", workspace=workspace, language="en")
    said = describe(raised.value, "ingest")
    assert said == "interrupted after norms/test-106/1/norm.md was written in full (its report was not made: `normcli check` gives it)"
    assert exit_code_for(raised.value) == 130
    from normcli.bundle import parse_bundle

    assert [node.path for node in parse_bundle(workspace / "norms" / "test-106" / "1" / "norm.md").nodes] == EXPECTED
    assert describe(KeyboardInterrupt()) == "interrupted"


def test_a_pdf_without_pages_or_without_pdf_structure_is_refused_saying_why(workspace: Path, tmp_path: Path) -> None:
    """PDFium's load error is worded for a person (its own text for a file without pages reads `PDFium: Success`)."""
    pdfium = pytest.importorskip("pypdfium2")
    empty = pdfium.PdfDocument.new()  # a catalog whose page tree has no page
    empty.save(str(tmp_path / "no-pages.pdf"))
    empty.close()
    with pytest.raises(InvalidArgument, match=r"'no-pages.pdf' is not a readable PDF \(.*the file has no pages") as raised:
        ingest(tmp_path / "no-pages.pdf", "TEST 107", "1", workspace=workspace, language="en")
    assert "Success" not in str(raised.value)
    assert _visible(workspace) == []


def test_a_file_that_is_empty_no_pdf_or_cut_short_is_refused_saying_which(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """What a new user meets most: a download that failed (0 bytes, an HTML error page saved as .pdf) or stopped
    half-way. PDFium gives one code for all three; the file's first and last bytes tell them apart."""
    whole = _norm(pdf_builder()).save(tmp_path / "whole.pdf").read_bytes()
    files = {
        "empty.pdf": (b"", r"'empty.pdf' is empty \(0 bytes\)", "export it again"),
        "page.pdf": (
            b"<!DOCTYPE html><html><body>404 Not Found</body></html>\n",
            r"'page.pdf' is not a PDF: it does not begin with %PDF",
            "export",
        ),
        "half.pdf": (whole[: len(whole) // 2], r"'half.pdf' is cut short: it does not end with %%EOF", "download it again"),
        "text.pdf": (b"%PDF-1.7 a text file named like a PDF\n", r"'text.pdf' is cut short", "download it again"),
    }
    for name, (data, message, hint) in files.items():
        (tmp_path / name).write_bytes(data)
        with pytest.raises(InvalidArgument, match=message) as raised:
            ingest(tmp_path / name, "TEST 109", "1", workspace=workspace, language="en")
        assert hint in (raised.value.hint or ""), name
    assert _visible(workspace) == []


def _looped(data: bytes, tmp_path: Path, name: str) -> Path:
    """The PDF with every bookmark's first child made the outline's first bookmark: each one is its own ancestor."""
    first = re.search(rb"/First (\d+) 0 R", data)
    assert first is not None
    looped, count = re.subn(rb"/Title", b"/First " + first.group(1) + b" 0 R /Count 1 /Title", data)
    assert count == len(EXPECTED)
    (tmp_path / name).write_bytes(looped)
    return tmp_path / name


def test_an_outline_that_loops_back_is_one_warning_and_no_stray_line_on_stderr(
    pdf_builder, workspace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """pypdfium2 stops at a bookmark it has seen and logs a line of its own for each loop; that line said nothing
    about the import, so it becomes the report's warning, with what to do."""
    data = _norm(pdf_builder(outline=True)).save(tmp_path / "outline.pdf").read_bytes()
    report = ingest(_looped(data, tmp_path, "loop.pdf"), "TEST 110", "1", workspace=workspace, language="en")
    assert capsys.readouterr().err == ""
    looping = [warning for warning in report.warnings if "loops back on itself" in warning]
    assert len(looping) == 1 and "--no-outline" in looping[0]
    assert [node.path for node in read_back(workspace, report).nodes] == ["1", "2"]  # read up to the loop
    report = ingest(tmp_path / "loop.pdf", "TEST 111", "1", workspace=workspace, language="en", use_outline=False)
    assert [node.path for node in read_back(workspace, report).nodes] == EXPECTED


def test_an_outline_deeper_than_the_importer_reads_says_so(
    pdf_builder, workspace: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    builder = pdf_builder(outline=True).page()
    for level in range(17):
        builder.heading(".".join(["1"] * (level + 1)) + f" Level {level + 1}", level=level, size=max(16 - level, 10.5))
        builder.line("Some text at this level, with enough words to be a paragraph of running text.")
    report = ingest(builder.save(tmp_path / "deep.pdf"), "TEST 112", "1", workspace=workspace, language="en")
    assert capsys.readouterr().err == ""
    assert any("nested deeper than the importer reads" in warning for warning in report.warnings)


def test_an_outline_out_of_page_order_gives_the_tree_in_page_order(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """An outline that lists its second chapter before its first (each bookmark to its own page): the clauses come in
    the order of the pages, each on its page, nothing lost or repeated."""
    builder = _norm(pdf_builder(outline=True))
    outline = builder.pdf._outline  # fpdf2 writes the outline in this list's order
    assert [section.name for section in outline] == ["Scope", "Terms", "Requirements", "General"]
    builder.pdf._outline = outline[2:] + outline[:2]
    report = ingest(builder.save(tmp_path / "unordered.pdf"), "TEST 104", "1", workspace=workspace, language="en")
    nodes = read_back(workspace, report).nodes
    assert [(node.path, node.page_start) for node in nodes] == [("1", 1), ("1.1", 1), ("2", 2), ("2.1", 2)]


def test_a_two_thousand_page_pdf_imports(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder()
    for number in range(2000):
        builder.page()
        if number % 200 == 0:
            builder.heading(f"{number // 200 + 1} Part {number // 200 + 1}")
        for row in range(5):  # the lines at the page edges repeat on every page: they are running headers and go
            builder.line(f"Page {number + 1}, line {row + 1} of a long norm, with a sentence of ordinary words on it.")
    pdf = builder.save(tmp_path / "long.pdf")
    report = ingest(pdf, "TEST 104", "1", workspace=workspace, language="en")
    nodes = read_back(workspace, report).nodes
    assert report.pages == 2000 and [node.path for node in nodes] == [str(k) for k in range(1, 11)]
    assert nodes[-1].page_start == 1801 and nodes[-1].page_end == 2000


def test_the_cli_words_an_encrypted_pdf_as_one_line_with_exit_code_2(cli, pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = _norm(pdf_builder())
    builder.pdf.set_encryption(owner_password="owner", user_password="secret")
    pdf = builder.save(tmp_path / "locked.pdf")
    ran = cli("ingest", str(pdf), "--code", "X 1", "--edition", "1", workspace=workspace)
    assert ran.code == 2 and ran.stderr.count("\n") == 1 and "encrypted" in ran.stderr and "Traceback" not in ran.stderr


def _scan(builder: PdfBuilder, picture: Path, pages: int = 2) -> PdfBuilder:
    picture.write_bytes(png_bytes(80, 100))
    for _ in range(pages):
        builder.page().image(picture, height=500)
    return builder


def test_a_scan_without_text_is_refused_like_a_pdf_of_drawings(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Pages that are only images (a scan) and pages that are only drawings both have nothing to import: each is
    refused (exit 2) with what it is, and no bundle is written, rather than an empty norm in the workspace."""
    scan = _scan(pdf_builder(), tmp_path / "page.png").save(tmp_path / "scan.pdf")
    with pytest.raises(InvalidArgument, match=r"no text to import: 2 of its 2 pages are images without a text layer") as raised:
        ingest(scan, "TEST 105", "1", workspace=workspace, language="en")
    assert raised.value.param == "source"
    drawing = pdf_builder().page()
    drawing.pdf.rect(100, 100, 200, 150, style="F")
    logo = drawing.save(tmp_path / "logo.pdf")
    with pytest.raises(InvalidArgument, match=r"'logo.pdf' has no text to import$") as raised:
        ingest(logo, "TEST 105", "1", workspace=workspace, language="en")
    assert raised.value.param == "source"
    assert _visible(workspace) == []


def test_a_scan_with_ocr_but_no_tesseract_says_to_install_it(
    pdf_builder, workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scan = _scan(pdf_builder(), tmp_path / "page.png", pages=1).save(tmp_path / "scan.pdf")
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    with pytest.raises(InvalidArgument, match="tesseract is not installed") as raised:
        ingest(scan, "TEST 106", "1", workspace=workspace, language="en", ocr=True)
    assert raised.value.param == "ocr" and "install tesseract" in raised.value.hint
    assert _visible(workspace) == []


def test_a_scan_read_by_ocr_imports(pdf_builder, workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scan = _scan(pdf_builder(), tmp_path / "page.png", pages=1).save(tmp_path / "scan.pdf")
    tesseract = tmp_path / "bin" / "tesseract"
    tesseract.parent.mkdir()
    tesseract.write_text("#!/bin/sh\necho '1 Scope'\necho 'Recognised text of the scanned page.'\n", encoding="utf-8")
    tesseract.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tesseract.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    report = ingest(scan, "TEST 107", "1", workspace=workspace, language="en", ocr=True)
    assert "Recognised text of the scanned page." in norm_text(workspace, report)


@pytest.mark.parametrize("kind", ["scan", "drawing"])
def test_the_cli_refuses_a_pdf_without_text_in_one_line_with_exit_code_2(
    cli, pdf_builder, workspace: Path, tmp_path: Path, kind: str
) -> None:
    if kind == "scan":
        pdf = _scan(pdf_builder(), tmp_path / "page.png").save(tmp_path / "scan.pdf")
    else:
        builder = pdf_builder().page()
        builder.pdf.line(100, 400, 400, 500)
        pdf = builder.save(tmp_path / "drawing.pdf")
    for options in ((), ("--json",)):
        ran = cli("ingest", str(pdf), "--code", "X 1", "--edition", "1", *options, workspace=workspace)
        assert ran.code == 2 and ran.stderr.count("\n") == 1 and "Traceback" not in ran.stderr, ran.stderr
        assert "no text to import" in ran.stderr and ran.stderr.count("--ocr") == 1, ran.stderr
    assert _visible(workspace) == []


def test_text_that_is_the_only_text_is_never_dropped_as_furniture(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A placeholder PDF whose every page prints the same line at its top (as a running header would be): that
    line is all the document says, so it is its text, not furniture."""
    builder = pdf_builder()
    for _ in range(3):
        builder.page().line("Dummy PDF file for the importer", x=72)
    pdf = builder.save(tmp_path / "dummy.pdf")
    report = ingest(pdf, "TEST 108", "1", workspace=workspace, language="en")
    assert "Dummy PDF file for the importer" in norm_text(workspace, report)


def test_pages_of_one_line_under_an_occasional_heading_keep_that_line(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Each page's one line is at its edge and repeats in shape on every page, as a running footer would; but
    dropped, it would leave nothing but the headings, and the import was refused as having no text."""
    builder = pdf_builder()
    for number in range(30):
        builder.page()
        if number % 10 == 0:
            builder.heading(f"{number // 10 + 1} Part {number // 10 + 1}")
        builder.line(f"Text of page {number + 1}, with a sentence of ordinary words on it.")
    report = ingest(builder.save(tmp_path / "sparse.pdf"), "TEST 113", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert [node.path for node in read_back(workspace, report).nodes] == ["1", "2", "3"]
    assert "Text of page 1," in text and "Text of page 30," in text
