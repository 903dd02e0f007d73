"""Every real document of ../shared/corpus imports without a crash and with a quality report; the traps are handled."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from normcli.bundle import parse_bundle
from normcli.importers import ingest

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
pytestmark = [pytest.mark.corpus, pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not there")]

DOCUMENTS = [
    "debian-policy/policy.pdf",
    "debian-policy/policy.txt",
    "debian-policy/copyright-format-1.0.txt",
    "ethereum-yellowpaper/paper.pdf",
    "fhs-3.0/fhs-3.0.pdf",
    "fhs-3.0/fhs-3.0.txt",
    "theora-spec/Theora.pdf",
    "nist-sp800-63-3/sp800-63-3.md",
    "nist-sp800-63-3/sp800-63a.md",
    "nist-sp800-63-3/sp800-63b.md",
    "nist-sp800-63-3/sp800-63c.md",
    "spdx-spec-2.3/spdx-spec-v2.3.md",
    "python-peps/pep-0008.rst",
    "python-peps/pep-0440.rst",
    "rfc-http-xml/rfc9110.xml",
    "rfc-http-xml/rfc9111.xml",
    "rfc-http-xml/rfc9112.xml",
    "rfc-quic-and-keywords/rfc2119.txt",
    "rfc-quic-and-keywords/rfc8174.txt",
    "rfc-quic-and-keywords/rfc8999.txt",
    "rfc-quic-and-keywords/rfc9000.txt",
    "rfc-quic-and-keywords/rfc9001.txt",
    "rfc-quic-and-keywords/rfc9002.txt",
    "rfc-zlib-deflate-gzip/rfc1950.txt",
    "rfc-zlib-deflate-gzip/rfc1951.txt",
    "rfc-zlib-deflate-gzip/rfc1952.txt",
    "rfc3986-uri/rfc3986.txt",
]


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, object]]:
    """Each corpus document imported once into one scratch workspace."""
    root = tmp_path_factory.mktemp("corpus") / "ws"
    (root / "norms").mkdir(parents=True)
    done = {}
    for relative in DOCUMENTS:
        code = "CORPUS " + Path(relative).name.replace(".", "-")
        done[relative] = (root, ingest(CORPUS / relative, code, "1", workspace=root, language="en", force=True))
    return done


def _paths(imported: dict, relative: str) -> dict[str, object]:
    root, report = imported[relative]
    return {node.path: node for node in parse_bundle(root / report.file).nodes}


@pytest.mark.parametrize("relative", DOCUMENTS)
def test_every_document_imports_with_a_quality_report(imported: dict, relative: str) -> None:
    root, report = imported[relative]
    assert report.sections > 0
    assert report.quality_score is not None, report.problems
    bundle = parse_bundle(root / report.file)
    assert not [problem for problem in bundle.problems if problem.severity == "error"]
    assert not [problem for problem in bundle.problems if problem.kind == "duplicate_path"]


def test_policy_pdf_numbers_the_appendices_as_chapters_13_to_23(imported: dict) -> None:
    nodes = _paths(imported, "debian-policy/policy.pdf")
    assert nodes["1"].title == "About this manual"
    assert nodes["13"].title == "Introduction and scope of these appendices"
    assert "23" in nodes and "9.1.1" in nodes
    assert nodes["1.1"].page_start == 3  # printed page 3 is PDF page 13


def test_policy_text_renumbers_the_restarted_appendix_sequence(imported: dict) -> None:
    _root, report = imported["debian-policy/policy.txt"]
    nodes = _paths(imported, "debian-policy/policy.txt")
    assert nodes["13"].title.startswith("Introduction and scope")
    assert any("restarts at 1" in warning for warning in report.warnings)


def test_pdfium_hyphenation_marks_do_not_reach_the_bundle(imported: dict) -> None:
    for relative in ("theora-spec/Theora.pdf", "ethereum-yellowpaper/paper.pdf"):
        root, report = imported[relative]
        text = (root / report.file).read_text(encoding="utf-8")
        assert "\ufffe" not in text
    theora = (imported["theora-spec/Theora.pdf"][0] / imported["theora-spec/Theora.pdf"][1].file).read_text(encoding="utf-8")
    assert "Section 6.4.4" in theora


def test_yellow_paper_run_in_headings_and_running_header(imported: dict) -> None:
    root, report = imported["ethereum-yellowpaper/paper.pdf"]
    nodes = _paths(imported, "ethereum-yellowpaper/paper.pdf")
    assert nodes["K.1"].title.startswith("Deletion of an Account Despite Out-of-gas")
    assert nodes["K.1"].text.startswith("At block 2675119")
    assert "is a mapping between addresses" in nodes["4.1"].text  # U+FFFE as PDFium's code 2, rejoined
    text = (root / report.file).read_text(encoding="utf-8")
    assert "SECURE DECENTRALISED GENERALISED TRANSACTION LEDGER SHANGHAI VERSION" not in text


def test_theora_running_headers_are_not_clauses_and_figures_are_saved(imported: dict) -> None:
    _root, report = imported["theora-spec/Theora.pdf"]
    nodes = _paths(imported, "theora-spec/Theora.pdf")
    assert nodes["3.2"].title == "High-Level Decode Process"
    assert report.figures >= 20 and report.tables >= 15
    assert "Appendix A" in nodes


def test_fhs_pdf_without_outline(imported: dict) -> None:
    _root, report = imported["fhs-3.0/fhs-3.0.pdf"]
    nodes = _paths(imported, "fhs-3.0/fhs-3.0.pdf")
    assert not report.outline_used
    assert nodes["3.4"].title.startswith("/bin : Essential user command binaries")
    assert {"1", "2", "3", "4", "5", "6", "7"} <= set(nodes)


def test_rfc1951_heading_shares_its_line_with_body_text(imported: dict) -> None:
    nodes = _paths(imported, "rfc-zlib-deflate-gzip/rfc1951.txt")
    assert nodes["3.1"].title == "Overall conventions"
    assert nodes["3.1"].text.startswith("In the diagrams below")
    assert nodes["3.1.1"].title == "Packing into bytes"


def test_markdown_heading_levels_that_disagree_with_clause_depth(imported: dict) -> None:
    nist = _paths(imported, "nist-sp800-63-3/sp800-63b.md")
    assert nist["5.1.1.1"].depth == 4 and nist["5.1.1.1"].parent_path == "5.1.1"
    spdx = _paths(imported, "spdx-spec-2.3/spdx-spec-v2.3.md")
    assert spdx["I.1"].depth == 2 and spdx["I.1"].parent_path == "Annex I"


def test_rfc_xml_sections_are_numbered_by_nesting(imported: dict) -> None:
    nodes = _paths(imported, "rfc-http-xml/rfc9111.xml")
    assert nodes["4.2.1"].title == "Calculating Freshness Lifetime"
    assert "Appendix A" in nodes


@pytest.mark.slow
def test_the_accuracy_bench_meets_its_tree_goals() -> None:
    """Tree recall: 100 % with the outline, >= 98 % with it ignored or stripped (the bench's references are independent)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import import_accuracy

    for pdf in import_accuracy.corpus_pdfs():
        row = import_accuracy.measure(pdf, repeat=1)
        assert row["entries"] > 0, row
        assert row["asIs"] == 100.0, row
        assert row["outlineIgnored"] >= 98.0 and row["stripped"] >= 98.0, row


def test_the_same_document_in_pdf_and_text_gives_the_same_tree(tmp_path: Path) -> None:
    """An independent check of the PDF reading without an outline: the text edition prints the same clauses."""
    from normcli.importers.common import title_key

    def clauses(source: str, code: str, **options: object) -> set[tuple[str, str]]:
        report = ingest(CORPUS / source, code, "1", workspace=tmp_path, language="en", **options)
        return {(node.path, title_key(node.title)) for node in parse_bundle(tmp_path / report.file).nodes if node.path[0].isdigit()}

    policy_pdf = clauses("debian-policy/policy.pdf", "POLICY PDF", use_outline=False)
    policy_txt = clauses("debian-policy/policy.txt", "POLICY TXT")
    assert len(policy_pdf) == len(policy_txt) == 338 and policy_pdf == policy_txt
    assert clauses("fhs-3.0/fhs-3.0.pdf", "FHS PDF") == clauses("fhs-3.0/fhs-3.0.txt", "FHS TXT")


def test_rfc_titles_come_from_the_centred_title_line_not_the_header_block(imported: dict) -> None:
    titles = {relative: parse_bundle(imported[relative][0] / imported[relative][1].file).title for relative in imported}
    assert titles["rfc-quic-and-keywords/rfc8174.txt"] == "Ambiguity of Uppercase vs Lowercase in RFC 2119 Key Words"
    assert titles["rfc-quic-and-keywords/rfc2119.txt"] == "Key words for use in RFCs to Indicate Requirement Levels"
    assert titles["rfc3986-uri/rfc3986.txt"] == "Uniform Resource Identifier (URI): Generic Syntax"


def test_rfc_text_keeps_compound_words_wrapped_at_their_hyphen_whole(imported: dict) -> None:
    root, report = imported["rfc3986-uri/rfc3986.txt"]
    text = (root / report.file).read_text(encoding="utf-8")
    assert "dotted-decimal" in text and "dotted- decimal" not in text and "case- insensitive" not in text


def test_printed_contents_pages_are_a_node_of_their_own_never_clause_text(imported: dict) -> None:
    """FHS has no outline: its printed contents (dot leaders) used to land in the 'Dedication' clause."""
    root, report = imported["fhs-3.0/fhs-3.0.pdf"]
    text = (root / report.file).read_text(encoding="utf-8")
    txt = (CORPUS / "fhs-3.0/fhs-3.0.txt").read_text(encoding="utf-8")
    numbers = [line.split(" ")[0] for line in txt.splitlines() if re.match(r"^\d+(?:\.\d+){1,2}\. \S", line)]  # printed to depth 3
    nodes = _paths(imported, "fhs-3.0/fhs-3.0.pdf")
    assert "Table of Contents" in nodes and len(nodes["Dedication"].text) < 600
    contents = text[text.index("# Table of Contents") : text.index("# 1 Introduction")]
    listed = {line.split(" ")[0] for line in contents.splitlines()}
    assert len(numbers) > 150 and all(number in listed for number in numbers)  # every sub-clause is listed in the contents node
    assert not [line for line in text[text.index("# 1 Introduction") :].splitlines() if "........" in line]


def test_a_language_version_aligns_clause_for_clause(tmp_path: Path) -> None:
    """Debian Reference in English, then its French PDF as a language version: the same paths and node ids."""
    import pypdfium2 as pdfium

    from normcli.model import node_id

    folder = CORPUS / "debian-reference"
    outline = len(list(pdfium.PdfDocument(str(folder / "debian-reference.en.pdf")).get_toc(max_depth=8)))
    (tmp_path / "norms").mkdir()
    ingest(folder / "debian-reference.en.pdf", "DEBREF", "2.100", workspace=tmp_path, language="en")
    report = ingest(folder / "debian-reference.fr.pdf", "DEBREF", "2.100", workspace=tmp_path, language="fr")
    edition = tmp_path / Path(report.file).parent
    english = [node.path for node in parse_bundle(edition / "norm.en.md").nodes]
    french = [node.path for node in parse_bundle(edition / "norm.fr.md").nodes]
    assert outline == 451 and len(english) > outline
    assert french == english
    assert {node_id("DEBREF", "2.100", path) for path in french} == {node_id("DEBREF", "2.100", path) for path in english}
    assert report.alignment is not None and report.alignment["aligned"] == len(english)
    assert report.alignment["unmatchedNew"] == [] and report.alignment["unmatchedExisting"] == []


def test_raised_values_and_footnotes_keep_their_meaning(imported: dict) -> None:
    """The Yellow Paper's 10^18 and 2^256 are not flattened into 1018 and 2256; Debian Policy's footnotes are footnotes."""
    root, report = imported["ethereum-yellowpaper/paper.pdf"]
    paper = (root / report.file).read_text(encoding="utf-8")
    assert "10¹⁸ Wei" in paper and "2²⁵⁶" in paper and "1018 Wei" not in paper
    root, report = imported["debian-policy/policy.pdf"]
    policy = (root / report.file).read_text(encoding="utf-8")
    notes = re.findall(r"^\[\^(\d+)\]: \S", policy, re.M)
    assert len(notes) >= 50 and "areas[^1]" in policy
    assert all(f"[^{label}]" in policy.replace(f"[^{label}]:", "") for label in notes)  # every note is cited


def test_theora_figures_are_named_by_their_id_and_their_labels_stay_out_of_the_text(imported: dict) -> None:
    root, report = imported["theora-spec/Theora.pdf"]
    bundle = parse_bundle(root / report.file)
    assert {figure.id for figure in bundle.figures} >= {"fig-2.1", "fig-2.3", "fig-7.2"}
    assert all(Path(figure.file).stem == figure.id for figure in bundle.figures if figure.file)
    text = (root / report.file).read_text(encoding="utf-8")
    before = text[: text.index("![Figure 2.1 ")].rsplit("\n\n", 3)
    assert "Picture Height" not in "\n\n".join(before[-3:])  # the figure's labels are in its picture
    # a prime stays on its letter; the PDF sets a few at full size after a space (the `Y ′ plane` rows of
    # its parameter tables, 7 since those tables are read whole), and those keep it
    assert text.count("Y′") > 4 * text.count("Y ′")
