"""Code set in a fixed-pitch font reads as code: a listing set apart from the prose becomes a fenced code block,
a line for each printed line, its indentation kept and its line numbers dropped; `key = {value},` lines are
code, not a table; a URL or a command set in a typewriter font inside a paragraph stays in the paragraph."""

from __future__ import annotations

import re
from pathlib import Path

from importer_helpers import dejavu_pdf, norm_text, read_back

from normcli.importers import ingest
from normcli.importers.pdf import _code_line, _code_text, _listing_without_line_numbers, _listings
from normcli.importers.pdf_pages import Line


def _code_blocks(text: str) -> list[list[str]]:
    """The fenced code blocks of a written norm, each as its lines."""
    return [block.split("\n") for block in re.findall(r"^```\n(.*?)\n```$", text, re.S | re.M)]


def _courier(builder, lines: list[tuple[int, str]], size: float = 9, leading: float = 11) -> None:
    """Lines of a listing in Courier, each at its indentation (in characters of 0.6 em)."""
    builder.pdf.set_font("Courier", "", size)
    for indent, text in lines:
        builder.y += leading
        builder.pdf.text(90 + indent * 0.6 * size, builder.y, text)


def test_a_listing_set_apart_is_a_code_block_line_for_line(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("1 Declaring a family")
    builder.line("Each encoding declares the family once, and then its shapes with their sizes, in")
    builder.line("the order the loader reads them; the declarations for the slanted shape are these:")
    builder.gap(6)
    listing = [
        (0, "\\DeclareFontFamily{T2A}{lcmss}{}"),
        (0, "\\DeclareFontShape{T2A}{lcmss}{m}{sl}{%"),
        (2, "<13.82><16.59><19.907><23.89>%"),
        (2, "lali8%"),
        (0, "}{}"),
    ]
    _courier(builder, listing)
    builder.gap(10).line("The other encodings follow the same pattern, one family and four shapes each.")
    pdf = builder.save(tmp_path / "listing.pdf")
    report = ingest(pdf, "TEST 901", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    expected = [" " * indent + code for indent, code in listing]
    assert _code_blocks(text) == [expected]
    assert "in the order the loader reads them; the declarations for the slanted shape are these:" in text  # one paragraph
    assert "\nThe other encodings follow the same pattern, one family and four shapes each.\n" in text
    assert not read_back(workspace, report).tables


def test_a_listing_printed_with_line_numbers_loses_them(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """The numbers a documented source prints before each code line (and alone for an empty line) are dropped, as the
    page reading drops them where most of a page's lines are numbered; here the prose is most of the page. Once
    three listings are numbered (these two and the third), a one-line listing's number goes too. The name a
    documented source sets in the left margin beside its code is a line of text before the code, not a line of it."""
    builder = pdf_builder().page().heading("2 Journal options")

    def prose() -> None:
        for _ in range(2):
            builder.line("The volume is set plain, italic or bold, and the number after it in parentheses or with")
            builder.line("a word before it; each option is one line of the menu the program shows the user here.")
            builder.gap(8)
        builder.gap(4)

    def listing(first: int, code: list[str], note: str = "") -> None:
        builder.pdf.set_font("Courier", "", 9)
        builder.gap(10 if note else 0)  # the note, a line above the code, is apart from the prose
        for number, line in enumerate(code, start=first):
            builder.y += 11
            if note and number == first:
                builder.pdf.text(100 - 4 - 0.6 * 9 * len(note), builder.y - 9, note)  # in the margin, a line above
            builder.pdf.text(100, builder.y, f"{number} {line}" if line else str(number))
        builder.gap(10)

    prose()
    first = ["\\beginoptiongroup{JOURNAL VOLUME:}{}", "\\optdef{*}{}{Volume plain}{as vol(num)}", "", "  \\getans", "\\endoptiongroup"]
    listing(531, first)
    prose()
    second = ["\\def\\getans{%", "  \\ask", "}"]
    listing(536, second, note="\\getans")
    prose()
    listing(539, ["\\relax"])
    builder.line("The form of the number is given in the next group of options, with its own menu.")
    pdf = builder.save(tmp_path / "numbered.pdf")
    report = ingest(pdf, "TEST 902", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert _code_blocks(text) == [first, second, ["\\relax"]]
    assert "\n\\getans\n\n```\n\\def\\getans{%" in text


def test_bibtex_entries_in_a_typewriter_font_that_does_not_say_so_are_code_not_a_table(workspace: Path, tmp_path: Path) -> None:
    """`key = {value},` lines aligned on their signs look like two columns; set in a fixed-pitch font (known by its
    glyphs' widths, the font's name and flags saying nothing) they are a code block, not a table."""
    pdf = dejavu_pdf(("Entry", "", "DejaVuSansMono.ttf"), ("Prose", "", "DejaVuSans.ttf"))
    pdf.set_font("Prose", "", 10)
    pdf.text(72, 100, "The database holds the article as one entry, each field on a line of its own:")
    entry = [
        ("@ARTICLE{gibbard,", ""),
        ("  title", "= {Morality in Living},"),
        ("  author", "= {Gibbard, Allan},"),
        ("  number", "= {1},"),
        ("  pages", "= {140--164},"),
        ("  year", "= {1999},"),
        ("}", ""),
    ]
    pdf.set_font("Entry", "", 9)
    for k, (key, value) in enumerate(entry):
        pdf.text(72, 120 + 11 * k, key)
        if value:
            pdf.text(72 + 16 * 5.42, 120 + 11 * k, value)  # the values aligned at the 17th column
    pdf.set_font("Prose", "", 10)
    pdf.text(72, 120 + 11 * len(entry) + 16, "The style prints it as a numbered reference in the list at the end.")
    data = bytes(pdf.output()).replace(b"DejaVuSansMonoBook", b"DejaVuSansTeleBook").replace(b"/Flags 5", b"/Flags 4")
    assert b"DejaVuSansMono" not in data
    (tmp_path / "entry.pdf").write_bytes(data)
    report = ingest(tmp_path / "entry.pdf", "TEST 903", "1", workspace=workspace, language="en")
    assert not read_back(workspace, report).tables
    blocks = _code_blocks(norm_text(workspace, report))
    assert len(blocks) == 1 and blocks[0][0] == "@ARTICLE{gibbard," and blocks[0][-1] == "}"
    assert [line.split("=")[0].rstrip() for line in blocks[0][1:-1]] == [key for key, value in entry if value]
    assert len({line.index("=") for line in blocks[0][1:-1]}) == 1  # the signs stay aligned


def test_a_url_in_a_typewriter_font_inside_a_paragraph_stays_in_it(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("3 References")
    builder.line("Satoshi Nakamoto. Bitcoin: A peer-to-peer electronic cash system, 2008. URL")
    builder.y += 13
    builder.pdf.set_font("Courier", "", 10)
    builder.pdf.text(72, builder.y, "http://www.bitcoin.org/bitcoin.pdf")
    builder.line("and the paper it cites, published the year before by the same group of authors.")
    builder.gap(10).line("The next reference starts a paragraph of its own after a gap, as the others do.")
    pdf = builder.save(tmp_path / "url.pdf")
    report = ingest(pdf, "TEST 904", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert not _code_blocks(text)
    assert "URL http://www.bitcoin.org/bitcoin.pdf and the paper it cites" in text


def test_line_numbers_go_only_when_every_line_counts_up_by_one() -> None:
    assert _listing_without_line_numbers(["12 \\def\\a{%", "13   b}", "14", "15 \\a"]) == ["\\def\\a{%", "  b}", "", "\\a"]
    kept = ["1 2 3", "4 5 6", "7 8 9"]  # numbers that are data: they do not count lines
    assert _listing_without_line_numbers(kept) == kept
    assert _listing_without_line_numbers(["10 PRINT X", "GOTO 10", "20 END"]) == ["10 PRINT X", "GOTO 10", "20 END"]


def test_a_literate_programs_chunk_is_code_though_its_fonts_are_the_texts(workspace: Path, tmp_path: Path) -> None:
    """WEB, CWEB and noweb print a chunk of code under its head `⟨name 3⟩ +≡` in the text's own fonts, so no fixed
    pitch tells it; its rules aligned in two columns are code, not a table, and the prose after a wider step is not."""
    pdf = dejavu_pdf(("Prose", "", "DejaVuSans.ttf"))
    pdf.set_font("Prose", "", 10)
    pdf.text(72, 100, "The scanner returns a token for each keyword of the long format, as follows.")
    pdf.text(72, 122, "⟨scanning rules 3⟩ +≡")
    pdf.text(500, 122, "(34)")
    rules = [("table", "return TABLE;"), ("item", "return ITEM;"), ("row", "return ITEM;"), ("column", "return ITEM;")]
    for k, (word, action) in enumerate(rules):
        pdf.text(72, 134 + 12 * k, word)
        pdf.text(160, 134 + 12 * k, action)
    pdf.text(72, 134 + 12 * len(rules) + 12, "The parser then reads the span count and the content of each item in turn.")
    (tmp_path / "chunk.pdf").write_bytes(bytes(pdf.output()))
    report = ingest(tmp_path / "chunk.pdf", "TEST 905", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert not read_back(workspace, report).tables
    blocks = _code_blocks(text)
    assert len(blocks) == 1 and blocks[0][0].startswith("⟨scanning rules 3⟩ +≡")
    assert [line.split() for line in blocks[0][1:]] == [[word, *action.split()] for word, action in rules]
    assert "\nThe parser then reads the span count and the content of each item in turn.\n" in text


def test_a_line_in_a_typewriter_font_is_no_listing_line_when_it_is_a_formula_a_list_item_or_a_footnote() -> None:
    def line(text: str, spans: list[tuple[str, float, float]] | None = None) -> Line:
        return Line(0, text, 72, 300, 700, 692, 9.0, spans=spans or [(text, 72, 300)], mono=True, listing=True)

    assert _code_line(line("\\DeclareFontFamily{T2A}{lcmss}{}"))
    assert not _code_line(line("0 if v ∉ {27, 28} ∨ r = 0"))  # mathematical operators: a formula naming an identifier
    assert not _code_line(line("(312) 0 < r < secp256k1n", [("(312)", 57, 80), ("0 < r < secp256k1n", 200, 322)]))
    assert not _code_line(line("• lilo.conf"))
    assert not _code_line(line("[^3]: From http://en.wikipedia.org/wiki/English_language"))


def test_a_listing_line_ending_in_a_wrap_mark_of_another_font_stays_in_its_listing(workspace: Path, tmp_path: Path) -> None:
    """dblatex wraps a long code line with a mark (`←`) set in a symbol font: the line is still the listing's, and
    the listing is one block, not two around a paragraph."""
    pdf = dejavu_pdf(("Prose", "", "DejaVuSans.ttf"))
    pdf.set_font("Prose", "", 10)
    pdf.text(72, 100, "The menu entry of the configuration file reads as follows in the installed system:")
    code = [
        "menuentry 'Debian GNU/Linux' {",
        "    insmod gzio",
        "    linux /boot/vmlinuz-5.10.0-6-amd64 root=UUID=fe3e1db5",
        "        ro quiet",
        "    initrd /boot/initrd.img-5.10.0-6-amd64",
        "}",
    ]
    for k, line in enumerate(code):
        pdf.set_font("Courier", "", 9)
        pdf.text(80, 122 + 11 * k, line)
        if "root=" in line:
            pdf.set_font("Prose", "", 9)
            pdf.text(80 + 5.4 * len(line) + 4, 122 + 11 * k, "←")
    pdf.set_font("Prose", "", 10)
    pdf.text(72, 122 + 11 * len(code) + 14, "Each entry loads the kernel and its initial ramdisk, then starts the system.")
    (tmp_path / "wrapped.pdf").write_bytes(bytes(pdf.output()))
    report = ingest(tmp_path / "wrapped.pdf", "TEST 906", "1", workspace=workspace, language="en")
    blocks = _code_blocks(norm_text(workspace, report))
    assert len(blocks) == 1
    assert [line.rstrip(" ←") for line in blocks[0]] == code


def test_a_list_set_in_typewriter_columns_and_read_row_by_row_is_one_block_of_rows() -> None:
    """Words set in two typewriter columns that the reading order gives row by row (a line of the left column, then
    the line beside it) are one listing whose rows keep both columns; the left column is no run of margin names."""

    def line(text: str, x0: float, top: float) -> Line:
        return Line(0, text, x0, x0 + 6 * len(text), top, top - 8, 10.0, spans=[(text, x0, x0 + 6 * len(text))], mono=True, listing=True)

    left = ["\\evrofili", "\\evrofimi", "\\ekofin", "\\epitafi", "\\esnafi", "\\esnafima"]
    right = ["\\figurina", "\\figurinama", "\\figurine", "\\figurinom", "\\figurira", "\\figuriraju"]
    stream = [
        line(word, x0, 700 - 12 * k)
        for k, pair in enumerate(zip(left, right, strict=True))
        for word, x0 in zip(pair, (126, 222), strict=True)
    ]
    listings = _listings(stream, set(), 10.0)
    assert list(listings.values()) == [list(range(len(stream)))]
    assert _code_text(stream) == [f"{first:<16}{second}" for first, second in zip(left, right, strict=True)]


def test_a_command_shown_in_a_footnote_stays_in_the_note() -> None:
    """A typewriter line set apart under a footnote's first line is the note's text: a code block would stay where
    the note was while the note moves to the end of its clause."""
    note = Line(0, "[^17]: This can be determined by using the command", 72, 300, 120, 113, 8.0, spans=[("[^17]: …", 72, 300)])
    command = "readelf -d /usr/lib/libz.so.1.2.3.4 | grep SONAME"
    shown = Line(0, command, 90, 300, 104, 97, 8.0, spans=[(command, 90, 300)], mono=True, listing=True)
    assert _listings([note, shown], set(), 10.0) == {}
    prose = Line(0, "This can be determined by using the command:", 72, 300, 120, 113, 8.0, spans=[("This …", 72, 300)])
    assert _listings([prose, shown], set(), 10.0) == {1: [1]}  # in the text, the same line apart is a listing
