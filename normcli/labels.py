"""The words a norm prints before the number of a clause, a figure or a table, in French, German, Italian and English.

One place for the parser's captions, the cross-reference grammar, the clause and figure lookups
and the renderer. A module of its own because the figure lookup is on every `--json` call's import path
and the parser is not.
"""

FIGURE_LABEL = r"(?i:figures?|fig\.?|abbildung(?:en)?|abb\.|bild(?:er)?|figur(?:en)?|figur[ae])"
TABLE_LABEL = r"(?i:tableaux?|tabellen?|tables?|tabell[ae]|tab\.)"

CLAUSE_LABEL = (
    r"(?i:chiffres?|ch\.|ziffern?|ziff\.|sections?|clauses?|subclauses?|cifr[ae]|"
    r"paragraphes?|abschnitte?|kapitel|chapitres?|capitol[oi]|sezion[ei]|art\.|articles?)"
)
