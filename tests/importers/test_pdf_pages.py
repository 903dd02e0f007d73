"""Reading a PDF's pages in two processes gives exactly the pages one process reads, in order, and loses none
when the helper process fails; no helper is started when no core is free."""

from __future__ import annotations

import gc
import os
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pypdfium2 as pdfium
import pytest
from importer_helpers import dejavu_pdf
from test_pdf_tables_kinds import _music_font_staves

from normcli.importers import pdf_pages
from normcli.importers.common import Draft

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"


def _read(pdf: Path, parallel: bool) -> tuple[list[pdf_pages.Page], Draft, list[tuple[int, int]]]:
    """The pages of `pdf` (read with a helper process or alone), the draft and the progress reports."""
    document = pdfium.PdfDocument(str(pdf))
    draft = Draft()
    reports: list[tuple[int, int]] = []
    try:
        pages = pdf_pages.read_pages(
            document, draft, False, "en", lambda done, total: reports.append((done, total)), pdf if parallel else None
        )
    finally:
        document.close()
    return pages, draft, reports


def _numbered(pdf_builder, count: int, path: Path) -> Path:
    builder = pdf_builder()
    for number in range(1, count + 1):
        builder.page()
        builder.heading(f"{number} Clause {number}").line(f"Clause {number} says something of its own on page {number} of the test.")
        builder.line(f"A second line of clause {number}, so that each page holds a paragraph and not a single line.")
    return builder.save(path)


def test_a_failing_helper_loses_no_page(pdf_builder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pdf = _numbered(pdf_builder, pdf_pages.PARALLEL_FROM + 4, tmp_path / "numbered.pdf")
    alone, alone_draft, _ = _read(pdf, parallel=False)
    main = os.getpid()
    read_page = pdf_pages._read_page

    def failing_in_the_helper(*args, **kwargs):  # the forked helper inherits this: it fails on the first page it claims
        if os.getpid() != main:
            raise RuntimeError("a page the helper cannot read")
        return read_page(*args, **kwargs)

    monkeypatch.setattr(pdf_pages, "_read_page", failing_in_the_helper)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))  # a free core, whatever the machine is doing
    pages, draft, reports = _read(pdf, parallel=True)
    assert [page.index for page in pages] == list(range(pdf_pages.PARALLEL_FROM + 4))
    assert pages == alone
    assert [line.text for page in pages for line in page.lines][:2] == [
        "1 Clause 1",
        "Clause 1 says something of its own on page 1 of the test.",
    ]
    assert draft.warnings == alone_draft.warnings
    assert reports[-1] == (len(pages), len(pages))


def _collector_states(monkeypatch: pytest.MonkeyPatch, module, name: str) -> list[bool]:
    """Whether the cycle collector is on at each call of `module.name`, filled in as it is called."""
    function = getattr(module, name)
    seen: list[bool] = []

    def recording(*args, **kwargs):
        seen.append(gc.isenabled())
        return function(*args, **kwargs)

    monkeypatch.setattr(module, name, recording)
    return seen


def test_pages_are_read_with_the_cycle_collector_paused_and_left_as_they_were(
    pdf_builder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The collector is off while each page is read (its per-character objects would start collections that walk all
    the earlier pages), and afterwards in the state it was in: on again, or still off when the caller had it off."""
    pdf = _numbered(pdf_builder, 3, tmp_path / "numbered.pdf")
    seen = _collector_states(monkeypatch, pdf_pages, "_read_page")
    assert gc.isenabled()
    pages, _, _ = _read(pdf, parallel=False)
    assert len(pages) == 3 and seen == [False, False, False]
    assert gc.isenabled()
    gc.disable()
    try:
        _read(pdf, parallel=False)
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert seen == [False] * 6


def test_the_import_keeps_the_collector_paused_to_its_end(pdf_builder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After the reading too (tables, Markdown) the collector stays off: its first collections would walk every line
    read; once the import returns it is on again."""
    from normcli.importers import pdf

    document = _numbered(pdf_builder, 3, tmp_path / "numbered.pdf")
    seen = _collector_states(monkeypatch, pdf, "find_tables")
    assert gc.isenabled()
    draft = pdf.import_pdf(document)
    assert seen == [False] and gc.isenabled()
    assert "Clause 3 says something of its own" in "\n".join(draft.body)


@pytest.mark.corpus
@pytest.mark.skipif(not (CORPUS / "fhs-3.0" / "fhs-3.0.pdf").is_file(), reason="../shared/corpus is not there")
def test_pages_read_in_two_processes_are_the_pages_read_in_one(monkeypatch: pytest.MonkeyPatch) -> None:
    pdf = CORPUS / "fhs-3.0" / "fhs-3.0.pdf"
    helped: list[int] = []
    finish = pdf_pages._Helper.finish

    def counting(self):
        done = finish(self)
        helped.append(len(done))
        return done

    monkeypatch.setattr(pdf_pages._Helper, "finish", counting)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))  # a free core, whatever the machine is doing
    alone, alone_draft, alone_reports = _read(pdf, parallel=False)
    pages, draft, reports = _read(pdf, parallel=True)
    assert len(pages) == len(pdfium.PdfDocument(str(pdf)))
    assert pages == alone
    assert (draft.warnings, draft.scanned_pages) == (alone_draft.warnings, alone_draft.scanned_pages)
    if hasattr(os, "fork") and len(os.sched_getaffinity(0)) >= 2 and threading.active_count() == 1:
        assert helped and helped[0] > 0  # where a helper can run, it read some of the pages
    assert reports[-1] == alone_reports[-1] == (len(pages), len(pages))
    assert [done for done, _ in reports] == sorted(done for done, _ in reports)  # progress never goes back


def test_a_character_beyond_the_basic_plane_is_one_character_at_the_index_of_its_first_half() -> None:
    # what PDFium's per-character Unicode gives for `E = mc` set in a math font: 𝐸 (U+1D438) and 𝑚 (U+1D45A) in halves
    halves = "".join(chr(unit) for unit in (0xD835, 0xDC38)) + " = " + "".join(chr(unit) for unit in (0xD835, 0xDC5A)) + "c"
    joined = pdf_pages.joined_pairs(halves)
    assert len(joined) == len(halves)  # the indices still match PDFium's list
    assert joined.replace(pdf_pages._SECOND_HALF, "") == "\U0001d438 = \U0001d45ac"
    assert joined.index("\U0001d45a") == halves.index(chr(0xD835), 1)
    assert pdf_pages.joined_pairs("plain text, x²") == "plain text, x²"


def test_no_helper_when_no_core_is_free(pdf_builder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pdf = _numbered(pdf_builder, pdf_pages.PARALLEL_FROM + 1, tmp_path / "numbered.pdf")
    monkeypatch.setattr(os, "getloadavg", lambda: (float(os.cpu_count() or 1), 0.0, 0.0))
    assert pdf_pages._Helper.start(pdf, [""] * (pdf_pages.PARALLEL_FROM + 1), False, "en") is None
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    helper = pdf_pages._Helper.start(pdf, [""] * (pdf_pages.PARALLEL_FROM + 1), False, "en")
    if hasattr(os, "fork") and len(os.sched_getaffinity(0)) >= 2 and threading.active_count() == 1:
        assert helper is not None
    if helper is not None:
        assert len(helper.finish()) == pdf_pages.PARALLEL_FROM + 1  # alone, the helper reads every page
        helper.stop()


def test_each_line_knows_its_font_by_name(pdf_builder, tmp_path: Path) -> None:
    builder = pdf_builder().page()
    faces = [("Helvetica", "", "Helvetica"), ("Times", "", "Times-Roman"), ("Times", "B", "Times-Bold"), ("Courier", "", "Courier")]
    for family, style, _ in faces:
        builder.y += 16
        builder.pdf.set_font(family, style, 10)
        builder.pdf.text(72, builder.y, f"A line set in {family} {style or 'regular'} for the reader")
    pages, _, _ = _read(builder.save(tmp_path / "faces.pdf"), parallel=False)
    assert [(line.font, line.mono) for line in pages[0].lines] == [(name, name == "Courier") for _, _, name in faces]


def test_a_short_line_in_a_typewriter_font_that_does_not_say_so_is_fixed_pitch(tmp_path: Path) -> None:
    """TeX's typewriter fonts (`CMSLTT10`, `NimbusMonL-Regu`, `SFTT1000`) carry neither the fixed-pitch flag nor a
    name that says so, and a line of a listing may be too short for its advances to tell (`}{}`): the widths the
    font gives its narrow and wide characters (`i` and `m` alike) make it fixed-pitch. A font of the same family
    set in proportion is not, however short its line."""
    pdf = dejavu_pdf(("Listing", "", "DejaVuSansMono.ttf"), ("Prose", "", "DejaVuSans.ttf"))
    pdf.set_font("Listing", "", 10)
    for y, text in ((100, "\\DeclareFontShape{X2}{lcmss}{m}{sl}{%"), (112, "lali8%"), (124, "}{}")):
        pdf.text(72, y, text)
    pdf.set_font("Prose", "", 10)
    for y, text in ((150, "The shapes are declared once for each encoding, with their sizes."), (162, "fig. 1"), (174, "}{}")):
        pdf.text(72, y, text)
    # the typewriter font renamed and its fixed-pitch flag cleared, as TeX's are (same lengths: the offsets hold)
    data = bytes(pdf.output()).replace(b"DejaVuSansMonoBook", b"DejaVuSansTeleBook").replace(b"/Flags 5", b"/Flags 4")
    assert b"DejaVuSansMono" not in data and b"/Flags 4" in data
    (tmp_path / "tele.pdf").write_bytes(data)
    pages, _, _ = _read(tmp_path / "tele.pdf", parallel=False)
    assert [(line.text, line.mono) for line in pages[0].lines] == [
        ("\\DeclareFontShape{X2}{lcmss}{m}{sl}{%", True),
        ("lali8%", True),
        ("}{}", True),
        ("The shapes are declared once for each encoding, with their sizes.", False),
        ("fig. 1", False),
        ("}{}", False),
    ]
    assert pages[0].lines[0].font == "DejaVuSansTeleBook"


def test_a_fonts_widths_are_asked_for_by_bare_calls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`_pitch_of` asks for a dozen glyph widths per font and page through `_text_calls`' bare pointers, not through
    pypdfium2's declared functions (which convert every argument of every call); the fonts read as they did."""
    import pypdfium2.raw as raw

    pdf_pages._text_calls()  # the bare pointers taken before the declared functions are replaced

    def declared(*args):
        raise AssertionError("a call through pypdfium2's declared function")

    for name in ("FPDFText_GetTextObject", "FPDFTextObj_GetFont", "FPDFFont_GetGlyphWidth"):
        monkeypatch.setattr(raw, name, declared)
    test_a_short_line_in_a_typewriter_font_that_does_not_say_so_is_fixed_pitch(tmp_path)


def test_a_subset_tag_is_not_part_of_the_font_name() -> None:
    assert pdf_pages.base_font("ABCDEF+CMBX12") == "CMBX12"
    assert pdf_pages.base_font("NimbusSans-Bold") == "NimbusSans-Bold"
    assert pdf_pages.base_font("AbCdEf+Times") == "AbCdEf+Times"  # not a tag: six capitals make one


def test_the_bold_faces_of_computer_modern_are_bold_by_name() -> None:
    """TeX names the bold faces of Computer Modern and its EC and cm-super versions by a code (`CMBX12`, `SFBX1200`),
    with no weight PDFium reads: the name makes them bold; the roman, sans and typewriter faces stay regular."""
    for name in ("ABCDEF+CMBX12", "SFBX1200", "CMB10", "CMSSBX10", "ECBI1000", "CMBXTI10", "SFSX1095"):
        assert pdf_pages._bold_font(name, False), name
    for name in ("ABCDEF+CMR10", "SFRM1200", "SFTT1000", "CMSS10", "CMBSY10", "ECRM1000"):
        assert not pdf_pages._bold_font(name, False), name


def _counting_font_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The character indices whose font PDFium is asked for, in order, from now on."""
    calls = pdf_pages._text_calls()
    reads: list[int] = []

    def font_info(handle, index, *rest):
        reads.append(index)
        return calls.font_info(handle, index, *rest)

    counted = SimpleNamespace(**{**vars(calls), "font_info": font_info})
    monkeypatch.setattr(pdf_pages, "_text_calls", lambda: counted)
    return reads


def test_each_characters_font_is_read_once_per_page(pdf_builder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A line's font, its bold run and its share of pictures ask for the same characters (the first, the middle,
    the last; all of a short line): PDFium is asked once for each, and the answers stay what they were."""
    builder = pdf_builder().page().heading("4 Reading fonts")
    builder.line("A line of body text long enough to be sampled at a sixth, the middle and five sixths.")
    builder.y += 16
    builder.pdf.set_font("Courier", "", 10)
    builder.pdf.text(72, builder.y, "code_line(with, args)")
    builder.line("short line")
    pdf = builder.save(tmp_path / "fonts.pdf")
    reads = _counting_font_reads(monkeypatch)
    pages, _, _ = _read(pdf, parallel=False)
    assert reads and len(reads) == len(set(reads))
    assert [(line.text, line.font, line.mono, line.bold_prefix) for line in pages[0].lines] == [
        ("4 Reading fonts", "Helvetica-Bold", False, len("4 Reading fonts")),
        ("A line of body text long enough to be sampled at a sixth, the middle and five sixths.", "Helvetica", False, 0),
        ("code_line(with, args)", "Courier", True, 0),
        ("short line", "Helvetica", False, 0),
    ]


def test_a_page_drawn_with_a_music_font_reads_each_characters_font_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a page with pictures every character of every line is looked at again, but no short line is read twice."""
    pdf = _music_font_staves(tmp_path / "musix.pdf", b"musix20")
    reads = _counting_font_reads(monkeypatch)
    pages, _, _ = _read(pdf, parallel=False)
    assert reads and len(reads) == len(set(reads))
    legend = [line for line in pages[0].lines if line.text.startswith("q ")]
    assert [round(line.pictures, 3) for line in legend] == [round(1 / 58, 3)]  # its note is one of its 58 characters


def test_a_line_without_a_wide_gap_is_one_cell_by_the_quick_way_and_the_long_one() -> None:
    """`_cells` answers a line with no wide gap and no step back from its visible boxes alone (`real`, most lines):
    the same cells as walking its characters one by one, which it does when a gap or a step back may cut it."""

    def boxes_of(text: str, starts: list[float]) -> list[tuple[float, float, float, float] | None]:
        return [None if char == " " else (x, x + 5.0, 700.0, 710.0) for char, x in zip(text, starts, strict=True)]

    cases = [
        ("one cell", [72.0 + 6 * k for k in range(8)]),  # even steps: one cell
        ("left  right", [72.0 + 6 * k for k in range(6)] + [200.0 + 6 * k for k in range(5)]),  # a gap over 1.2 em
        ("ab cd", [300.0, 306.0, 312.0, 72.0, 78.0]),  # a step back left of the cell's start: a cell of its own
        ("ab cd", [72.0, 78.0, 84.0, 85.0, 91.0]),  # a narrow gap: one cell
    ]
    for text, starts in cases:
        boxes = boxes_of(text, starts)
        real = [box for box in boxes if box is not None]
        assert pdf_pages._cells(text, boxes, 10.0, None, real) == pdf_pages._cells(text, boxes, 10.0), text
    assert [cell[0] for cell in pdf_pages._cells("left  right", boxes_of(*cases[1]), 10.0, None, real=None)] == ["left", "right"]
    assert pdf_pages._cells("one cell", boxes_of(*cases[0]), 10.0, None, [box for box in boxes_of(*cases[0]) if box]) == [
        ("one cell", 72.0, 72.0 + 6 * 7 + 5.0)
    ]


def test_the_helpers_pages_come_back_while_this_process_still_reads(pdf_builder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The helper sends each page as it reads it, and this process takes them between its own pages: when it is done
    with its share, most of the helper's pages are here already, and none is lost or changed."""
    pdf = _numbered(pdf_builder, pdf_pages.PARALLEL_FROM + 8, tmp_path / "numbered.pdf")
    alone, _, _ = _read(pdf, parallel=False)
    main = os.getpid()
    read_page = pdf_pages._read_page

    def slow_here(*args, **kwargs):  # this process's pages take a while, the helper's do not
        if os.getpid() == main:
            time.sleep(0.05)
        return read_page(*args, **kwargs)

    before_the_end: list[int] = []
    finish = pdf_pages._Helper.finish

    def counting(self):
        before_the_end.append(len(self.received))
        return finish(self)

    monkeypatch.setattr(pdf_pages, "_read_page", slow_here)
    monkeypatch.setattr(pdf_pages._Helper, "finish", counting)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    pages, _, _ = _read(pdf, parallel=True)
    assert pages == alone
    if hasattr(os, "fork") and len(os.sched_getaffinity(0)) >= 2 and threading.active_count() == 1:
        assert before_the_end and before_the_end[0] >= 2


def test_a_fonts_weight_is_asked_for_only_where_its_name_does_not_decide() -> None:
    """`_bold_prefix` skips PDFium's weight of a font whose name says bold or regular either way."""
    assert not pdf_pages._weighed("ABCDEF+CMBX12") and not pdf_pages._weighed("Helvetica") and not pdf_pages._weighed("Times-Bold")
    assert pdf_pages._weighed("ABCDEF+CMR10") and pdf_pages._weighed("FreeSans")  # a heavy weight makes these bold


def test_a_line_joined_from_pieces_reads_each_characters_font_at_its_own_index(pdf_builder, tmp_path: Path) -> None:
    """A bold word, a lowered script in bold and plain words on one printed line: PDFium puts each on a line of its own
    (the script is lowered by half an em) and the page reading joins them, with a space of its own between. The
    bold run ends with the script and the line's font is the plain words' (the middle character's): read at the
    line's first index plus the offset, they were the line breaks between the pieces (bold run to `pl`, no font)."""
    builder = pdf_builder().page()
    pdf = builder.pdf
    pdf.set_font("Helvetica", "B", 10)
    pdf.text(72, 120, "Bold")
    pdf.set_font("Helvetica", "B", 6)
    pdf.text(95, 125, "ab")
    pdf.set_font("Helvetica", "", 10)
    pdf.text(106, 120, "plains")
    pages, _, _ = _read(builder.save(tmp_path / "joined.pdf"), parallel=False)
    assert [(line.text, line.bold_prefix, line.font) for line in pages[0].lines] == [("Bold _{ab} plains", len("Bold ab"), "Helvetica")]


def test_only_lines_off_one_size_or_one_baseline_are_searched_for_scripts(
    pdf_builder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A line at one size on one baseline (most lines) has no script: it is written as it reads without the script
    search; a line with a smaller raised run, or a run at the text's size moved up, is searched and keeps its script."""
    builder = pdf_builder().page().heading("2 Scripts")
    builder.line("A plain line of body text at one size, on one baseline from its start to its end.")
    for parts in (
        [("One Gwei is 10", 10.0, 0.0), ("9", 7.0, 4.0), (" Wei.", 10.0, 0.0)],
        [("The area in m", 10.0, 0.0), ("2", 10.0, 4.0), (" is large.", 10.0, 0.0)],
    ):
        builder.y += 13
        x = 72.0
        for text, size, rise in parts:
            builder.pdf.set_font("Helvetica", "", size)
            builder.pdf.text(x, builder.y - rise, text)
            x += builder.pdf.get_string_width(text)
    builder.line("Another plain line closes the page.")
    pdf = builder.save(tmp_path / "scripts.pdf")
    searched: list[str] = []
    script_pieces = pdf_pages.script_pieces

    def recording(segment: str, glyphs, size: float) -> list[str]:
        searched.append(segment)
        return script_pieces(segment, glyphs, size)

    monkeypatch.setattr(pdf_pages, "script_pieces", recording)
    pages, _, _ = _read(pdf, parallel=False)
    assert [line.text for line in pages[0].lines] == [
        "2 Scripts",
        "A plain line of body text at one size, on one baseline from its start to its end.",
        "One Gwei is 10⁹ Wei.",
        "The area in m² is large.",
        "Another plain line closes the page.",
    ]
    assert searched == ["One Gwei is 109 Wei.", "The area in m2 is large."]
