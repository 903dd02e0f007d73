"""Text set in Type 3 fonts without a name (dvips's bitmap fonts: every face of the page named "" and flagged
alike, no widths for PDFium to give): a typewriter face is told by its letters' equal advances, so a console
transcript with a printed data frame is a listing, not a table, while the prose around it stays prose."""

from __future__ import annotations

from pathlib import Path

from importer_helpers import norm_text, pdf_of_objects, read_back

from normcli.importers import ingest
from normcli.importers.pdf_pages import even_faces

_NAMES = (
    "space exclam quotedbl numbersign dollar percent ampersand quotesingle parenleft parenright asterisk plus comma hyphen"
    " period slash zero one two three four five six seven eight nine colon semicolon less equal greater question at"
    f" {' '.join('ABCDEFGHIJKLMNOPQRSTUVWXYZ')} bracketleft backslash bracketright asciicircum underscore grave"
    f" {' '.join('abcdefghijklmnopqrstuvwxyz')} braceleft bar braceright asciitilde"
).split()


def _width(char: str, fixed: bool) -> int:
    """A glyph's width in thousandths of an em: one width for every glyph of the typewriter face."""
    if fixed:
        return 525
    return 278 if char in "ijlft.,:;!|' " else 833 if char in "mwMW" else 667 if char.isupper() else 556


_WIDTHS = (278, 525, 556, 667, 833)  # the glyphs' widths: each a box as wide, less a thin side bearing (objects 7 to 11)


def _type3_font(fixed: bool) -> bytes:
    """A Type 3 font of the printable ASCII characters, no name, each glyph a box of its width."""
    widths = [_width(chr(code), fixed) for code in range(32, 127)]
    procs = " ".join(f"/{name} {7 + _WIDTHS.index(width)} 0 R" for name, width in zip(_NAMES, widths, strict=True))
    return (
        f"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0]"
        f" /CharProcs << {procs} >> /Encoding << /Type /Encoding /Differences [32 {' '.join('/' + n for n in _NAMES)}] >>"
        f" /FirstChar 32 /LastChar 126 /Widths [{' '.join(map(str, widths))}] /Resources << >> >>"
    ).encode()


def _type3_pdf(path: Path, runs: list[tuple[str, float, float, str]]) -> Path:
    """A one-page PDF of text runs (font /P proportional or /T typewriter, x, baseline, text), both fonts Type 3."""
    escaped = [(font, x, y, text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")) for font, x, y, text in runs]
    content = "".join(f"BT /{font} 10 Tf {x:.2f} {y:.2f} Td ({text}) Tj ET\n" for font, x, y, text in escaped).encode("latin-1")
    glyphs = [b"%d 0 20 0 %d 700 d1 20 0 %d 700 re f" % (width, width - 20, width - 40) for width in _WIDTHS]
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /P 5 0 R /T 6 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"endstream",
        _type3_font(False),
        _type3_font(True),
        *(b"<< /Length %d >>\nstream\n" % len(glyph) + glyph + b"\nendstream" for glyph in glyphs),
    ]
    return pdf_of_objects(path, objects)


def _typed(x: float, y: float, line: str) -> list[tuple[str, float, float, str]]:
    """A typewriter line as dvips sets it: each word placed at its column (5.25 pt a character), no space glyphs."""
    runs = []
    column = 0
    for word in line.split(" "):
        if word:
            runs.append(("T", x + column * 5.25, y, word))
        column += len(word) + 1
    return runs


def test_a_console_transcript_in_an_unnamed_typewriter_face_is_a_listing_not_a_table(workspace: Path, tmp_path: Path) -> None:
    prose = [
        "The model is fitted to the veteran data and its summary printed as below, with one line for",
        "each of the variables that enter it, their coefficients and standard errors side by side.",
    ]
    runs = [("P", 72, 770, "1 Fitting the model")]
    runs += [("P", 72, 745 - 13 * k, text) for k, text in enumerate(prose)]
    console = [
        "> fit <- coxph(Surv(time, status) ~ karno + age + prior, data=veteran)",
        "> summary(fit)",
        "          coef    exp(coef)    se(coef)        z        p",
        "karno    -0.0327     0.9678      0.0055    -5.96   0.0000",
        "age      -0.0087     0.9913      0.0093    -0.94   0.3500",
        "prior     0.0072     1.0072      0.0232     0.31   0.7600",
        "trt       0.2946     1.3426      0.2076     1.42   0.1600",
    ]
    for k, line in enumerate(console):
        runs += _typed(90, 700 - 12 * k, line)
    runs += [("P", 72, 600 - 13 * k, text) for k, text in enumerate(prose)]
    report = ingest(_type3_pdf(tmp_path / "console.pdf", runs), "TEST 161", "1", workspace=workspace, language="en")
    assert not read_back(workspace, report).tables
    text = norm_text(workspace, report)
    assert "```\n> fit <- coxph(" in text and "prior     0.0072     1.0072" in text  # a code block, its columns kept
    assert "enter it, their coefficients" in text.split("```")[0]  # the prose before it is no code


def test_a_face_is_fixed_pitch_when_six_letters_or_more_advance_by_one_width() -> None:
    # two faces on one line of records (character, face, origin, (size, baseline)): the typewriter one's letters all
    # 6 pt apart, the other's as wide as the letters are; digits (one width in most faces) tell nothing
    typed, plain = "summary(fit)", "minimal title"
    text = typed + " " + plain + " 0123456789"
    faces = [1] * len(typed) + [None] + [2] * len(plain) + [None] + [3] * 10
    origins: list[float | None] = [6.0 * k for k in range(len(typed))] + [None]
    x = 100.0
    for char in plain:
        origins.append(None if char == " " else x)
        x += 2.8 if char in "ilt" else 8.3 if char == "m" else 5.6
    origins += [None] + [200.0 + 5.0 * k for k in range(10)]
    glyphs = [None if char == " " else (10.0, 700.0) for char in text]
    pitches = even_faces(text, faces, origins, glyphs)
    assert pitches.get(1) is True and pitches.get(2) is False and 3 not in pitches
