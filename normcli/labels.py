"""The words a norm prints before the number of a clause, a chapter, an annex, a figure or a table,
in French, German, Italian and English (chapters, annexes, figures and tables also in Spanish and Portuguese; figures
and tables also in Dutch, Danish, Czech, Slovak, Turkish, Russian and Polish), and `clause_number()`, which reads a
clause named with them.

One place for the bundle parser, the importers, the cross-reference grammar, the clause lookup,
search and the TUI's boxes, so that `chapitre 4`, `Kapitel 4`, `Annex A` or `Appendice A` name the
same clause everywhere. The fragments are regular-expression text, compiled where they are used
(by `re`'s cache): this module is on every `--json` call's import path and imports not even `re`.
"""

from __future__ import annotations

# -- the words, as regular-expression fragments (case-insensitive groups) ---------------------

# A figure or a table as text cites it (any number): `Figure 3`, `Abb. 3`, `Bilder 3`, `Tabellen 2`, and the forms a
# number follows in Dutch and Danish (`Figuur`, `Figurer`), Czech and Slovak (`obrázku 3`), Turkish (`Şekil`),
# Russian (`рисунке 3`) and Polish (`rysunku 3`).
FIGURE_LABEL = (
    r"(?i:figures?|fig\.?|abbildung(?:en)?|abb\.|bild(?:er)?|figur(?:en|er)?|figur[ae]|figuras|figuur|"
    r"obr[áa]z(?:ek|ok|ku|ky)|şekil|рисун(?:ок|ка|ке|ки)|rysun(?:ek|ku|ki))"
)
# (`Tabela` Portuguese and Polish, `Tabla` and `Cuadro` Spanish: babel's Spanish captions say `Cuadro`; `Tabel` Dutch
# and Danish, `Tabulka` Czech and Slovak, `Tablo` Turkish, `Таблица` Russian)
TABLE_LABEL = (
    r"(?i:tableaux?|tabellen?|tables?|tabell[ae]|tab\.|tabelas?|tablas?|cuadros?|tabel(?:ler)?|tabeli|"
    r"tabu[lľ](?:ka|ky|ce|ku)|tablo(?:lar)?|таблиц[аыеу])"
)
# A figure's or a table's own caption (one of them): `Figure 3 – …`, `Tabelle 2: …`, `Tabulka 2: …`, `Рисунок 1 – …`.
FIGURE_CAPTION_LABEL = r"(?i:figure|fig\.|abbildung|abb\.|bild|figur|figura|figuur|obr[áa]z(?:ek|ok)|şekil|рисунок|rysunek)"
TABLE_CAPTION_LABEL = r"(?i:tableau|tabelle|table|tabella|tabela|tabla|cuadro|tabel|tabu[lľ]ka|tablo|таблица)"

# An annex: the heading word (`Annexe A`, `Anhang B`, `Annex C`, `Appendix D`, `Appendice E`, `Allegato F`,
# `Anexo G` and `Apéndice H` in Spanish, `Anexo` and `Apêndice` in Portuguese) and every form text cites it in
# (plurals, `Anhänge`).
ANNEX_HEADING_LABEL = r"(?i:annexe|anhang|annex|allegato|appendix|appendice|anexo|ap[éêe]ndice)"
ANNEX_LABEL = r"(?i:annexes?|anh[aä]nge?|annex(?:es)?|appendix|appendices|allegat[oi]|appendice|anexos?|ap[éêe]ndices?)"
# The annex words folded (`fold.path_key` makes each of them `annex`, so all name one annex).
ANNEX_FOLDED = ("annexe", "annex", "anhang", "allegato", "appendix", "appendice", "anexo", "apendice")

# A division above the chapters, as a heading names it: `Part II`, `Partie II`, `Teil 2`, `Book I`, `File 1`
# (annexes are not divisions).
DIVISION_LABEL = r"(?i:part|partie|teil|parte|book|livre|buch|libro|volume|band|tome|file|fichier|datei)"

# A chapter as a heading or a text names it: `Chapter 4`, `chapitre 4`, `Kapitel 4`, `capitolo 4`, `Capítulo 4`.
CHAPTER_LABEL = r"(?i:chapters?|chapitres?|kapitel|capitol[oi]|cap[íi]tulos?)"

# Words before a clause number in text: `chiffre 4.2.1`, `Ziffer 4.2.1`, `section 4.2.1`, `clause 4.2.1`,
# `Abschnitt 4`, `paragraphe 3`, `art. 5`, and the chapter words.
CLAUSE_LABEL = (
    r"(?i:chiffres?|ch\.|ziffern?|ziff\.|sections?|clauses?|subclauses?|cifr[ae]|"
    r"paragraphes?|paragraphs?|abschnitte?|sezion[ei]|art\.|articles?|articoli?|"
    r"chapters?|chapitres?|kapitel|capitol[oi]|cap[íi]tulos?)"
)

# A clause number: `4`, `4.2.1`, an annex letter or its clause (`A`, `A.1`), an annex named with its word.
CLAUSE_NUMBER = rf"(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)*|{ANNEX_HEADING_LABEL}\s+(?:[A-Za-z]|\d+))"
_NAMED_CLAUSE = rf"^\s*(?:§+\s*|{CLAUSE_LABEL}\s+)?(?P<number>{CLAUSE_NUMBER})\s*\.?\s*$"


def clause_number(text: str) -> str | None:
    """The clause path `text` names, or None when it names no clause by number.

    `4.2.1`, `§ 4.2.1`, `chiffre 4.2.1`, `Kapitel 4` → the number; `A`, `A.1`, `Annex A`, `Anhang a`,
    `Appendix A` → the annex path as written (the lookup folds every annex word to one). A lone
    lowercase letter (`a`) is a word, not an annex.
    """
    if not isinstance(text, str) or len(text) > 300:
        return None
    import re

    match = re.match(_NAMED_CLAUSE, text)
    return match.group("number") if match else None


def strip_clause_label(text: str) -> str:
    """`text` without a leading `§` or clause word (`chiffre 4.2.1` → `4.2.1`); unchanged when it has none."""
    text = text.strip()
    if text[:1].isascii() and text[:1].isdigit():
        return text  # a bare number: every clause word starts with a letter (no `re` on a plain read)
    import re

    return re.sub(rf"^(?:§+\s*|{CLAUSE_LABEL}\s+)", "", text)
