"""Helpers of the importer tests: small PDFs made with fpdf2, PNGs, and reading an import back."""

from __future__ import annotations

import re
import struct
import unicodedata
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from normcli.bundle import parse_bundle
from normcli.model import Bundle

WIDTH, HEIGHT = 595.0, 842.0
BODY = 10
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")


def pdf_of_objects(path: Path, objects: list[bytes]) -> Path:
    """A PDF written by hand: its objects (numbered from 1, the first the catalog), their cross-reference table and
    trailer; for what fpdf2 does not write (Type 3 fonts, a scaled page, a producer's own text operators)."""
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


def png_bytes(width: int = 40, height: int = 30) -> bytes:
    """A small grey PNG, for figures."""
    rows = b"".join(b"\x00" + bytes([120, 120, 200]) * width for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def png_size(png: Path) -> tuple[int, int]:
    """A PNG file's width and height in pixels, from its header."""
    header = png.read_bytes()[16:24]
    return struct.unpack(">II", header)


def dejavu_pdf(*faces: tuple[str, str, str]):
    """An fpdf2 document of one empty page (A4 in points, uncompressed, no automatic page break) with DejaVu faces
    added as (family, style, file): `("Prose", "", "DejaVuSans.ttf")`, for text beyond Latin-1 or a fixed-pitch face
    whose name and flags do not say so. Skips the test where fpdf2 or one of the fonts is not installed."""
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    if not all((DEJAVU / file).exists() for _, _, file in faces):
        pytest.skip("the DejaVu fonts are not installed")
    pdf = fpdf.FPDF(unit="pt", format=(WIDTH, HEIGHT))
    pdf.set_compression(False)
    pdf.set_auto_page_break(False)
    pdf.add_page()
    for family, style, file in faces:
        pdf.add_font(family, style, str(DEJAVU / file))
    return pdf


class PdfBuilder:
    """Writes pages line by line: `heading()` in 16/13 pt bold, `line()` in 10 pt, with optional running header and page numbers."""

    def __init__(self, outline: bool = False, header: str | None = None, first_page_number: int | None = None) -> None:
        fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
        self.pdf = fpdf.FPDF(unit="pt", format=(WIDTH, HEIGHT))
        self.pdf.set_auto_page_break(False)
        self.pdf.set_compression(False)
        self.outline = outline
        self.header = header
        self.first_page_number = first_page_number
        self.y = 0.0
        self.pages = 0

    def page(self) -> PdfBuilder:
        """A new page, with its running header and printed page number."""
        self.pdf.add_page()
        self.pages += 1
        if self.header:
            self.pdf.set_font("Helvetica", "", 9)
            self.pdf.text(72, 40, self.header)
        if self.first_page_number is not None:
            self.pdf.set_font("Helvetica", "", 9)
            self.pdf.text(WIDTH / 2, HEIGHT - 30, str(self.first_page_number + self.pages - 1))
        self.y = 90.0
        return self

    def heading(self, text: str, level: int = 0, size: float | None = None) -> PdfBuilder:
        """A numbered heading line; with `outline`, also a bookmark (title without the number)."""
        size = size or (16 if level == 0 else 13 if level == 1 else 11.5)
        self.y += size * 1.2
        if self.outline:
            self.pdf.set_y(self.y - size)
            self.pdf.start_section(text.split(" ", 1)[1] if text[0].isdigit() or text[:2] in ("A.", "B.") else text, level=level)
        self.pdf.set_font("Helvetica", "B", size)
        self.pdf.text(72, self.y, text)
        self.y += size * 0.8
        return self

    def bookmarked(self, lines: list[str], bookmark: str, level: int, size: float = 16) -> PdfBuilder:
        """Heading lines in a large bold font, with one bookmark titled `bookmark` on the first of them."""
        self.pdf.set_y(self.y + size * 0.2)
        self.pdf.start_section(bookmark, level=level)
        for text in lines:
            self.y += size * 1.2
            self.pdf.set_font("Helvetica", "B", size)
            self.pdf.text(72, self.y, text)
        self.y += size * 0.8
        return self

    def line(self, text: str, x: float = 72, size: float = BODY, bold: bool = False) -> PdfBuilder:
        """One line of body text."""
        self.y += size * 1.3
        self.pdf.set_font("Helvetica", "B" if bold else "", size)
        self.pdf.text(x, self.y, text)
        return self

    def gap(self, points: float = 8) -> PdfBuilder:
        """Vertical space (a paragraph break)."""
        self.y += points
        return self

    def image(self, file: Path, height: float = 120) -> PdfBuilder:
        """An image across the text width, then space for its caption."""
        self.pdf.image(str(file), x=150, y=self.y + 6, w=200, h=height)
        self.y += height + 10
        return self

    def grid(
        self,
        rows: list[list[str]],
        columns: list[float],
        *,
        height: float = 16,
        baseline: float = 11,
        inset: float = 4,
        over: Iterable[int] | None = None,
        walls: Iterable[float] | None = None,
    ) -> PdfBuilder:
        """Rows of cells drawn with rules from here down, in the font and line width set last: each row `height` high,
        its text `baseline` under the row's top and `inset` right of its column's x (the last x of `columns` is the right
        edge); a rule across over each row whose index is in `over` (default: over every row and under the last, index
        `len(rows)`) and a rule down at each x of `walls` (default: every x of `columns`)."""
        pdf, top = self.pdf, self.y
        bottom = top + len(rows) * height
        for k in range(len(rows) + 1) if over is None else over:
            pdf.line(columns[0], top + k * height, columns[-1], top + k * height)
        for x in columns if walls is None else walls:
            pdf.line(x, top, x, bottom)
        for k, cells in enumerate(rows):
            for x, text in zip(columns, cells, strict=False):
                pdf.text(x + inset, top + k * height + baseline, text)
        self.y = bottom
        return self

    def save(self, path: Path) -> Path:
        """Write the PDF."""
        self.pdf.output(str(path))
        return path


def read_back(root: Path, report) -> Bundle:
    """The bundle an import wrote, parsed by the core parser (the round trip every test relies on)."""
    return parse_bundle(root / report.file)


def norm_text(root: Path, report) -> str:
    """The written norm.md."""
    return (root / report.file).read_text(encoding="utf-8")


# The Unicode forms of raised and lowered characters, as the importer writes scripts (`m²`, `x₁`).
SUPERSCRIPTS = dict(zip("0123456789+-=()ni", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ", strict=True))
SUBSCRIPTS = dict(zip("0123456789+-=()aeoxhklmnpstiruvj", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜᵢᵣᵤᵥⱼ", strict=True))
_PLAIN = {script: plain for plain, script in [*SUPERSCRIPTS.items(), *SUBSCRIPTS.items()]}


def reader_key(text: str) -> str:
    """Text compared as a reader would: scripts written plainly, case, accents and punctuation ignored."""
    text = re.sub(r"[\^_]\{([^{}]*)\}", r"\1", "".join(_PLAIN.get(c, c) for c in text))
    decomposed = unicodedata.normalize("NFKD", text)
    return re.sub(r"[^a-z0-9]+", "", "".join(c for c in decomposed if not unicodedata.combining(c)).lower())


def assert_figures_whole(
    text: str, bundle: Bundle, folder: Path, figures: list[dict], centimetres: Callable[[dict], tuple[float, float]]
) -> None:
    """Each figure of a producer document's truth (`number`, `labels`) is in the bundle with its file's stem as its id,
    rendered at 200 dpi to at least 80 % of the width and height `centimetres(figure)` gives, and none of its labels is
    left in the text (`folder`: the bundle's folder)."""
    found = {str(figure.number): figure for figure in bundle.figures if figure.number}
    body = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", text)
    for expected in figures:
        figure = found[expected["number"]]
        assert figure.file is not None and Path(figure.file).stem == figure.id
        width, height = png_size(folder / figure.file)
        cm = centimetres(expected)
        assert width >= 0.8 * cm[0] / 2.54 * 200 and height >= 0.8 * cm[1] / 2.54 * 200, (expected, width, height)
        for label in expected["labels"]:
            assert label not in body, label


def pipe_rows(markdown: str) -> list[list[str]]:
    """The cells of a Markdown pipe table, row by row, without its rule line."""
    return [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in markdown.splitlines()
        if line.strip().startswith("|") and not re.fullmatch(r"\|(?:\s*:?-{3,}:?\s*\|)+", line.strip())
    ]


def assert_table_matches(markdown: str, expected: dict) -> None:
    """A written pipe table has the truth's header row and body rows, cell for cell (as `reader_key` reads them)."""
    rows = pipe_rows(markdown)
    assert [reader_key(cell) for cell in rows[0]] == [reader_key(cell) for cell in expected["header"]], rows
    assert [[reader_key(cell) for cell in row] for row in rows[1:]] == [[reader_key(cell) for cell in row] for row in expected["rows"]]


def assert_scripts_kept(text: str, scripts: list) -> None:
    """Every raised or lowered run of the truth (`kind`, `base`, `content`) is in the text after its base,
    as Unicode script characters where they all exist, else as `^{…}` / `_{…}`."""
    flat = text.replace("\n", " ")
    for kind, base, content in scripts:
        if not base:
            continue
        table, mark = (SUPERSCRIPTS, "^") if kind == "sup" else (SUBSCRIPTS, "_")
        forms = [f"{base}{mark}{{{content}}}"]
        if all(c in table for c in content):
            forms.append(base + "".join(table[c] for c in content))
        assert any(form in flat for form in forms), (kind, base, content)
