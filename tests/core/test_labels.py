"""One set of clause, chapter, annex, figure and table words in French, German, Italian and English
(annexes, figures and tables also in Spanish and Portuguese; figures and tables also in Dutch, Danish, Czech, Slovak,
Turkish, Russian and Polish), read the same way by the lookup, search, the TUI's boxes, the importers and the bundle parser."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from normcli.labels import FIGURE_LABEL, TABLE_LABEL, clause_number
from normcli.service import Service

# (language, as a person types or a text cites it, the clause it names)
NAMED = [
    ("en", "4.2.1", "4.2.1"),
    ("en", "§ 4.2.1", "4.2.1"),
    ("en", "clause 4.2.1", "4.2.1"),
    ("en", "Section 4.2", "4.2"),
    ("en", "chapter 4", "4"),
    ("en", "Annex A", "Annex A"),
    ("en", "Appendix A", "Appendix A"),
    ("en", "A", "A"),
    ("en", "A.1", "A.1"),
    ("fr", "chiffre 4.2.1", "4.2.1"),
    ("fr", "chapitre 4", "4"),
    ("fr", "paragraphe 4.2", "4.2"),
    ("fr", "Annexe A", "Annexe A"),
    ("fr", "annexe a", "annexe a"),
    ("de", "Ziffer 4.2.1", "4.2.1"),
    ("de", "Kapitel 4", "4"),
    ("de", "Abschnitt 4.2", "4.2"),
    ("de", "Anhang A", "Anhang A"),
    ("it", "cifra 4.2.1", "4.2.1"),
    ("it", "capitolo 4", "4"),
    ("it", "sezione 4.2", "4.2"),
    ("it", "Allegato A", "Allegato A"),
    ("it", "Appendice A", "Appendice A"),
    ("es", "capítulo 4", "4"),
    ("pt", "Capitulo 4", "4"),
    ("es", "Anexo A", "Anexo A"),
    ("es", "Apéndice A", "Apéndice A"),
    ("pt", "Apêndice A", "Apêndice A"),
    ("pt", "APÊNDICE A", "APÊNDICE A"),
]
NOT_CLAUSES = ["a", "Figure 3", "Abbildung 3", "tableau 2", "charge de neige", "SIA 261", "", "4.2.1 Charge", "chapitre", "Annexe"]
FIGURES = [
    ("en", "Figure 3"),
    ("en", "Fig. 3"),
    ("fr", "figure 3"),
    ("de", "Abbildung 3"),
    ("de", "Bild 3"),
    ("de", "Abb. 3"),
    ("it", "Figura 3"),
    ("es", "Figuras 3"),
    ("nl", "Figuur 3"),
    ("da", "Figur 3"),
    ("da", "figurer 3"),
    ("cs", "Obrázek 3"),
    ("cs", "obrázku 3"),
    ("sk", "Obrázok 3"),
    ("tr", "Şekil 3"),
    ("tr", "ŞEKİL 3"),
    ("ru", "Рисунок 3"),
    ("ru", "рисунке 3"),
    ("pl", "Rysunek 3"),
    ("pl", "rysunku 3"),
]
TABLES = [("en", "Table 2"), ("fr", "Tableau 2"), ("de", "Tabelle 2"), ("it", "Tabella 2"), ("en", "Tab. 2")]
TABLES += [("pt", "Tabela 2"), ("es", "Tabla 2"), ("es", "Cuadro 2")]
TABLES += [("nl", "Tabel 2"), ("da", "tabeller 2"), ("cs", "Tabulka 2"), ("cs", "tabulce 2"), ("sk", "Tabuľka 2")]
TABLES += [("tr", "Tablo 2"), ("ru", "Таблица 2"), ("ru", "таблице 2"), ("pl", "Tabela 2"), ("pl", "tabeli 2")]
# (language, a figure's or table's own caption): the word opens the caption the importers read
CAPTIONS = [
    ("nl", "Figuur 4: Doorsnede van de ligger", "Tabel 2: Belastingen op het dak"),
    ("da", "Figur 4: Snit gennem bjælken", "Tabel 2: Laster på taget"),
    ("cs", "Obrázek 4: Řez nosníkem", "Tabulka 2: Zatížení střechy"),
    ("sk", "Obrázok 4: Rez nosníkom", "Tabuľka 2: Zaťaženie strechy"),
    ("tr", "Şekil 4: Kirişin kesiti", "Tablo 2: Çatı yükleri"),
    ("ru", "Рисунок 4 – Сечение балки", "Таблица 2 – Нагрузки на кровлю"),
    ("pl", "Rysunek 4: Przekrój belki", "Tabela 2: Obciążenia dachu"),
]


@pytest.mark.parametrize(("language", "text", "path"), NAMED, ids=[f"{language}: {text}" for language, text, _ in NAMED])
def test_a_clause_named_with_its_word_is_that_clause(language: str, text: str, path: str) -> None:
    assert clause_number(text) == path


@pytest.mark.parametrize("text", NOT_CLAUSES)
def test_words_figures_and_codes_are_not_clause_numbers(text: str) -> None:
    assert clause_number(text) is None


@pytest.mark.parametrize(("language", "text"), FIGURES + TABLES)
def test_figure_and_table_words_are_read_in_thirteen_languages(language: str, text: str) -> None:
    word = text.rsplit(" ", 1)[0]
    label = FIGURE_LABEL if (language, text) in FIGURES else TABLE_LABEL
    other = TABLE_LABEL if label is FIGURE_LABEL else FIGURE_LABEL
    assert re.fullmatch(label, word) and not re.fullmatch(other, word)


@pytest.mark.parametrize(("language", "figure", "table"), CAPTIONS, ids=[language for language, _, _ in CAPTIONS])
def test_a_caption_in_each_language_is_read_by_the_importers_and_the_bundle(tmp_path: Path, language: str, figure: str, table: str) -> None:
    from normcli.bundle import parse_bundle
    from normcli.importers.common import FIGURE_CAPTION, TABLE_CAPTION
    from tests.conftest import write_bundle

    figure_caption, table_caption = FIGURE_CAPTION.match(figure), TABLE_CAPTION.match(table)
    assert figure_caption and figure_caption.group("num") == "4" and not TABLE_CAPTION.match(figure)
    assert table_caption and table_caption.group("num") == "2" and not FIGURE_CAPTION.match(table)
    alt = f"{figure_caption.group('label')} 4 – {figure_caption.group('caption')}"  # as the PDF importer writes a figure
    body = f"# 1 Scope\n![{alt}](figures/fig-4.png)\n\n{table}\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    header = "---\ncode: T 1\nedition: '1'\nlanguage: en\n---\n"
    bundle = parse_bundle(write_bundle(tmp_path, "t-1", "1", header + body, "norm.md"))
    assert [(found.id, found.number) for found in bundle.figures] == [("fig-4", "4")]
    assert [(found.number, found.caption) for found in bundle.tables] == [("2", table)]


@pytest.mark.parametrize(("language", "text", "path"), NAMED, ids=[f"{language}: {text}" for language, text, _ in NAMED])
def test_every_command_opens_the_clause_so_named(sample_copy: Path, language: str, text: str, path: str) -> None:
    service = Service.open(sample_copy)
    toc = service.toc("SIA 261", 1, "2020", "fr")
    chapters = {node.path for node in toc.tree}
    annex = next(node.path for node in toc.tree if node.path.startswith("Annexe"))
    section = service.section("SIA 261", text, 500, 0, "2020", "fr")
    expected = annex if path.lower().startswith(("annex", "anhang", "appendi", "allegato", "anexo", "apé", "apê")) or path == "A" else path
    assert section.path == expected
    if section.path in chapters:  # a chapter, as `search` also finds it by number
        hits = service.search("SIA 261", text, 5, "2020", "fr").hits
        assert hits and hits[0].path == section.path and hits[0].kind == "path"


@pytest.mark.parametrize(("language", "text", "path"), NAMED, ids=[f"{language}: {text}" for language, text, _ in NAMED])
def test_the_tui_boxes_read_the_same_words(language: str, text: str, path: str) -> None:
    from normcli.tui.library import Location
    from normcli.tui.screens.goto import parse_target

    here = Location("SIA 261", "1", "2020", "fr")
    assert parse_target(text, here) == Location("SIA 261", path, "2020", "fr")
    assert parse_target(f"SIA 260, {text}", here) == Location("SIA 260", path, None)


def test_a_clause_number_is_read_without_a_pattern_as_the_patterns_would_read_it() -> None:
    import re

    from normcli.labels import CLAUSE_LABEL, FIGURE_LABEL, TABLE_LABEL, strip_clause_label
    from normcli.resolve import part_reference

    # Texts that start with a digit skip the patterns (start-up): the patterns are the oracle.
    texts = ["4.2.1", " 4.2.1 ", "4", "12.3a", "4 chiffre", "1 Tab. 3", "3-figure", "9\u00a0§", "2tab-3", "0.0.0.0.0.0.1"]
    texts += ["chiffre 4.2.1", "§ 4", "Ziffer 3", "tab-3", "Figure 2", "Tableau 3", "A.1", "ſection 4", "\u212aapitel 4"]
    for text in texts:
        assert strip_clause_label(text) == re.sub(rf"^(?:§+\s*|{CLAUSE_LABEL}\s+)", "", text.strip()), text
        stripped = text.strip()
        old = None
        match = re.match(r"^(?P<kind>tab|table|fig|figure)-(?P<num>\S+)$", stripped, re.I)
        if match:
            old = ("table" if match.group("kind").lower().startswith("tab") else "figure"), stripped
        else:
            for kind, label in (("table", TABLE_LABEL), ("figure", FIGURE_LABEL)):
                labelled = re.match(rf"^{label}\s*(?P<num>[A-Z]?\d+(?:[.\-]\d+)*)$", stripped)
                if labelled:
                    old = kind, labelled.group("num")
                    break
        assert part_reference(text) == old, text
