"""Three fictional norm-like documents, written for testing the PDF importer on office producers.

Each document is a list of blocks built from the tables below: headings (numbered three levels deep,
plus unnumbered front and back matter and an annex), paragraphs, captioned tables, figures and a
printed table of contents. The text is generated from sentence patterns written for this purpose,
so a document of 10–40 pages needs only a page of source; the same seed gives the same document.

Inline markup in every text: `^{…}` superscript, `_{…}` subscript, `[^…]` a footnote (its text),
`\u00ad` a soft hyphen (a break the layout may use). The writers in `make_documents.py` turn it into
real formatting (ODF spans, HTML `<sup>`/`<sub>`), never into Unicode super/subscript characters.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field


@dataclass
class Block:
    """One block of a document: kind is `title`, `toc`, `heading`, `para`, `table`, `figure` or `pagebreak`."""

    kind: str
    text: str = ""
    level: int = 0
    number: str | None = None  # a heading's path as printed (`4.2.1`, `Anhang A`, `A.1`); None: unnumbered
    numbered: bool = False  # the number is made by the outline numbering (not typed in the title)
    header: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    figure: str = ""  # `shapes` or `png`
    labels: list[str] = field(default_factory=list)  # text inside a figure (never body text)


@dataclass
class Document:
    """A fictional norm: its key (file stem), language, code, title and blocks."""

    key: str
    language: str
    code: str
    title: str
    blocks: list[Block]
    words: dict[str, str]  # `table`, `figure`, `contents`, `annex` as the language writes them
    hyphenated: list[str] = field(default_factory=list)  # compounds the text writes with a hard hyphen
    soft: list[str] = field(default_factory=list)  # words written with soft hyphens (one word, no hyphen)


# -- the patterns ---------------------------------------------------------------------------------

_DE = {
    "sentences": [
        "Für {topic} gelten die Anforderungen dieses Abschnitts, sofern der Bauherr nichts anderes vereinbart.",
        "Die Bemessung von {topic} erfolgt mit den charakteristischen Werten nach Tabelle {table} und den Beiwerten des Abschnitts.",
        "Bei {topic} ist die Wichte des Holzes mit γ = {small} kN/m^{3} anzusetzen, sofern kein genauerer Nachweis vorliegt.",
        "Die wirksame Querschnittsfläche A_{ef} darf mit {area} m^{2} nicht unterschritten werden.",
        "Die Holzfeuchte u_{1} beim Einbau soll {pct} % nicht überschreiten; Abweichungen sind im Bauteilkatalog festzuhalten.",
        "Für Holz-Beton-Verbunddecken gilt zusätzlich, dass die Verbindungsmittel in der Betonplatte ausreichend verankert sind.",
        "Die Kriechzahl k_{def} berücksichtigt das Langzeitverhalten; bei wechselndem Klima ist der größere Wert zu wählen.",
        "Die Verformung w_{inst} wird mit dem Mittelwert des Elastizitätsmoduls E_{0,mean} berechnet.",
        "Der Dehnungsgrenzwert beträgt ε = {small}·10^{-3} und gilt für alle Nutzungsklassen gleichermaßen.",
        "Eine Prüfung durch eine unabhängige Stelle ist bei Bauteilen mit einer Spannweite über {span} m vorzusehen.",
        "Die Nachweise sind für die ständige und die vorübergehende Bemessungssituation getrennt zu führen.",
        "Als Brett\u00adschicht\u00adholz gelten verklebte Bauteile aus mindestens drei Lamellen gleicher Festigkeitsklasse.",
        "Die Anschlüsse müssen so ausgebildet werden, dass Zwängungen aus Quellen und Schwinden nicht zu Rissen führen.",
        "Für die Dauerhaftigkeit ist der konstruktive Holzschutz dem chemischen Holzschutz vorzuziehen.",
        "Die Stoß-an-Stoß-Verbindung von Lamellen ist nur mit Keilzinken zulässig; der Zinkengrund ist zu reinigen.",
        "Bei Trag\u00adwerks\u00adplanungen mit geringer Redundanz ist eine zweite Lastabtragung nachzuweisen.",
    ],
    "notes": [
        "Die hier genannten Werte sind frei erfunden und dürfen nicht angewendet werden.",
        "Siehe auch die fiktive Richtlinie HBR 12, Ausgabe 2019.",
        "Der Wert gilt für eine Referenztemperatur von 20 °C.",
        "Vereinfachte Annahme; ein genauerer Nachweis ist zulässig.",
        "Angaben nach einer nicht existierenden Versuchsreihe.",
    ],
    "hyphenated": ["Holz-Beton-Verbunddecken", "Stoß-an-Stoß-Verbindung"],
    "soft": ["Brettschichtholz", "Tragwerksplanungen"],
}

_FR = {
    "sentences": [
        "Pour {topic}, les exigences de la présente section s'appliquent\u00a0; le maître d'ouvrage peut convenir d'exigences plus sévères.",
        "Le dimensionnement de {topic} se fait avec les valeurs caractéristiques du tableau {table}.",
        "La charge linéique q_{k} ne doit pas dépasser {small} kN/m\u00a0; au-delà, un justificatif particulier est requis.",
        "La surface d'appui A_{s} vaut au moins {area} m^{2} par point de fixation.",
        "Le poids volumique de la pierre naturelle est pris égal à {small} kN/m^{3}, sauf indication contraire.",
        "Les valeurs suivantes s'appliquent\u00a0: la résistance à l'arrachement, la rigidité et la durabilité.",
        "Les ancrages en porte-à-faux sont vérifiés sous l'effet combiné du poids propre et du vent.",
        "La déformation relative admissible est ε = {small}·10^{-3} pour les plaques de revêtement.",
        "La sous-construction métallique doit être protégée contre la corrosion sur toute sa longueur.",
        "Le coefficient de sécurité γ_{M} est donné par le fabricant\u00a0; à défaut, on adopte la valeur prudente.",
        "Une inspection visuelle est exigée tous les {span} ans pour les façades de plus de 22 m de hauteur.",
        "Les joints entre les plaques doivent rester ouverts afin de permettre la dilatation thermique.",
        "L'entraxe des consoles x_{1} est limité par la flexion des rails porteurs.",
        "Les chevilles d'ancrage sont posées dans un support sain, sans fissure ni cavité.",
        "Le contre-ventement de la sous-construction est assuré par des équerres disposées en quinconce.",
        "Les essais d'arrachement sont réalisés sur au moins cinq ancrages par lot de livraison.",
    ],
    "notes": [
        "Les valeurs citées sont fictives et ne doivent pas être utilisées en pratique.",
        "Voir aussi la directive fictive DFA 7, édition 2018.",
        "Valeur valable pour une température de référence de 20 °C.",
        "Hypothèse simplifiée\u00a0; un calcul plus précis est admis.",
        "D'après une série d'essais imaginaire.",
    ],
    "hyphenated": ["porte-à-faux", "sous-construction", "contre-ventement"],
    "soft": [],
}

_EN = {
    "sentences": [
        "For {topic}, the requirements of this clause apply unless the client specifies otherwise.",
        "The design of {topic} uses the characteristic values of Table {table} and the factors given below.",
        "The unit weight of saturated fill is taken as {small} kN/m^{3} where no test result is available.",
        "The effective cross-section area A_{e} shall not be less than {area} m^{2} at any point of the drain.",
        "The permeability coefficient k_{1} of the filter layer is at least {small}·10^{-3} m/s.",
        "Well-graded gravel is preferred for the bedding; single-size material may be used on steep slopes.",
        "The runoff coefficient C_{r} depends on the surface and is read from the table of this clause.",
        "A low-permeability liner is placed below the pipe where the groundwater table lies within {span} m.",
        "Inspection chambers are placed at every change of direction and at intervals of no more than 50 m.",
        "The rainfall intensity i_{10} for a ten-year return period is taken from the local records.",
        "The cross-section of an open channel is chosen so that the flow velocity stays between 0.6 and 3.0 m/s.",
        "Pipes laid under roads are bedded on a granular layer and surrounded by compacted fill.",
        "The outfall is protected against erosion with rip-rap over a length of at least {span} m.",
        "Maintenance access is provided to every part of the system that may need cleaning.",
        "The design flow Q_{d} is the product of the runoff coefficient, the intensity and the catchment area.",
        "Groundwater lowering during construction is kept to the minimum the excavation requires.",
    ],
    "notes": [
        "The values quoted are fictional and must not be used in practice.",
        "See also the fictional guideline DGN 4, issued in 2017.",
        "Valid for a reference temperature of 10 °C.",
        "A simplified assumption; a more detailed calculation is permitted.",
        "From an imaginary series of field tests.",
    ],
    "hyphenated": ["cross-section", "well-graded", "low-permeability"],
    "soft": [],
}


# -- the outlines ---------------------------------------------------------------------------------

_TIMBER = [
    ("Geltungsbereich", ["Anwendungsbereich", "Normative Verweisungen"]),
    ("Begriffe und Formelzeichen", ["Begriffe", ("Formelzeichen", ["Lateinische Buchstaben", "Griechische Buchstaben"])]),
    (
        "Baustoffe",
        [("Vollholz", ["Festigkeitsklassen", "Rohdichte und Feuchte"]), ("Brettschichtholz", ["Lamellen", "Klebstoffe"]), "Holzwerkstoffe"],
    ),
    (
        "Bemessung",
        [("Grundlagen", ["Bemessungssituationen", "Nutzungsklassen"]), ("Biegung", ["Biegespannungen", "Kippen"]), "Knicken von Stützen"],
    ),
    ("Verbindungen", [("Stiftförmige Verbindungsmittel", ["Nägel", "Stabdübel"]), "Holz-Beton-Verbund"]),
    ("Ausführung", ["Transport und Lagerung", "Montage"]),
]
_FACADE = [
    ("Domaine d'application", ["Objet", "Références normatives"]),
    ("Terminologie", ["Définitions", ("Notations", ["Lettres latines", "Lettres grecques"])]),
    (
        "Matériaux",
        [("Plaques de revêtement", ["Pierre naturelle", "Céramique"]), ("Ancrages", ["Chevilles", "Consoles"]), "Sous-construction"],
    ),
    ("Actions", [("Charges permanentes", ["Poids propre", "Excentricité"]), ("Vent", ["Pression", "Succion"]), "Température"]),
    ("Dimensionnement", [("Résistance des ancrages", ["Arrachement", "Cisaillement"]), "Porte-à-faux"]),
    ("Exécution et contrôle", ["Pose", "Inspection"]),
]
_DRAINAGE = [
    ("Scope", ["Field of application", "Normative references"]),
    ("Terms and symbols", ["Terms", ("Symbols", ["Latin letters", "Greek letters"])]),
    ("Hydrology", [("Rainfall", ["Intensity", "Return period"]), ("Runoff", ["Runoff coefficient", "Catchment area"]), "Groundwater"]),
    ("Design of drains", [("Pipes", ["Diameter", "Gradient"]), ("Open channels", ["Cross-section", "Lining"]), "Filter layers"]),
    ("Structures", [("Inspection chambers", ["Spacing", "Covers"]), "Outfalls"]),
    ("Construction and maintenance", ["Excavation", "Cleaning"]),
]

_TABLES = {
    "de": [
        (
            "Festigkeitskennwerte von Vollholz",
            ["Festigkeitsklasse", "f_{m,k} in N/mm^{2}", "ρ_{k} in kg/m^{3}", "Bemerkung"],
            [
                ["C16", "16", "310", "für untergeordnete Bauteile, nicht für Haupttragwerke"],
                ["C24", "24", "350", "übliche Klasse im Hochbau, auch für sichtbare Bauteile"],
                ["C30", "30", "380", "nur mit visueller und maschineller Sortierung"],
            ],
        ),
        (
            "Modifikationsbeiwerte k_{mod}",
            ["Nutzungsklasse", "ständig", "mittel", "kurz"],
            [["1", "0,60", "0,80", "0,90"], ["2", "0,60", "0,80", "0,90"], ["3", "0,50", "0,65", "0,70"]],
        ),
        (
            "Mindestabstände von Stabdübeln",
            ["Abstand", "Richtung zur Faser", "Mindestwert"],
            [
                ["a_{1}", "parallel", "(3 + 2 |cos α|) d"],
                ["a_{2}", "rechtwinklig", "3 d"],
                ["a_{3,t}", "beanspruchtes Hirnholzende, auch bei Zugstößen im Außenbereich", "max (7 d; 80 mm)"],
            ],
        ),
    ],
    "fr": [
        (
            "Caractéristiques des plaques de revêtement",
            ["Matériau", "Épaisseur en mm", "Poids en kN/m^{2}", "Remarque"],
            [
                ["Granit", "30", "0,81", "convient aux façades exposées au gel et aux embruns"],
                ["Calcaire", "40", "1,00", "contrôler la porosité avant la pose"],
                ["Céramique", "12", "0,26", "fixation invisible recommandée"],
            ],
        ),
        (
            "Coefficients partiels γ_{M}",
            ["Type d'ancrage", "Acier", "Béton", "Pierre"],
            [
                ["Cheville à expansion", "1,25", "1,50", "2,00"],
                ["Cheville chimique", "1,25", "1,80", "2,20"],
                ["Console soudée", "1,10", "–", "–"],
            ],
        ),
        (
            "Distances minimales aux bords",
            ["Distance", "Direction", "Valeur minimale"],
            [
                ["c_{1}", "bord vertical", "5 d"],
                ["c_{2}", "bord horizontal", "8 d"],
                ["c_{3}", "angle de la plaque, y compris les découpes pour les fenêtres et les portes", "max (10 d\u00a0; 100 mm)"],
            ],
        ),
    ],
    "en": [
        (
            "Runoff coefficients",
            ["Surface", "C_{r}", "Slope in %", "Note"],
            [
                ["Asphalt", "0.90", "0–2", "for new surfaces in good condition, without cracks"],
                ["Gravel", "0.60", "0–5", "compacted, well-graded material"],
                ["Lawn", "0.15", "2–7", "on sandy soil; clay soil gives higher values"],
            ],
        ),
        (
            "Minimum pipe gradients",
            ["Diameter in mm", "Gradient in ‰", "Velocity in m/s", "Self-cleaning"],
            [["150", "10", "0.8", "yes"], ["300", "4", "0.9", "yes"], ["600", "1.5", "1.0", "yes"]],
        ),
        (
            "Filter layer grading",
            ["Layer", "d_{15} in mm", "Requirement"],
            [
                ["Fine filter", "0.1", "d_{15} of filter below 5 d_{85} of soil"],
                ["Coarse filter", "2.0", "no loss of fines under the design flow"],
                ["Drainage layer", "8.0", "permeability at least 10^{2} times that of the adjacent soil, checked on site"],
            ],
        ),
    ],
}

_META = {
    "de": {
        "table": "Tabelle",
        "figure": "Abbildung",
        "contents": "Inhaltsverzeichnis",
        "annex": "Anhang",
        "foreword": "Vorwort",
        "references": "Literatur",
        "annex_title": "Bemessungsbeispiele (informativ)",
        "annex_clauses": ["Einfeldträger aus Brettschichtholz", "Stütze aus Vollholz"],
        "figures": ["Statisches System des Einfeldträgers", "Verlauf der Holzfeuchte über das Jahr"],
        "labels": ["Auflager A", "Auflager B", "q_d = 5 kN/m", "l = 6,0 m"],
        "edition": "Ausgabe 2026 – fiktive Norm, nur für Prüfzwecke",
    },
    "fr": {
        "table": "Tableau",
        "figure": "Figure",
        "contents": "Table des matières",
        "annex": "Annexe",
        "foreword": "Avant-propos",
        "references": "Bibliographie",
        "annex_title": "Exemples de calcul (informative)",
        "annex_clauses": ["Plaque de granit sur consoles", "Ancrage en porte-à-faux"],
        "figures": ["Schéma d'une fixation sur console", "Évolution de la température de la façade"],
        "labels": ["Console C1", "Plaque P2", "Mur porteur M3", "e = 40 mm"],
        "edition": "Édition 2026 – norme fictive, pour essais uniquement",
    },
    "en": {
        "table": "Table",
        "figure": "Figure",
        "contents": "Contents",
        "annex": "Annex",
        "foreword": "Foreword",
        "references": "Bibliography",
        "annex_title": "Worked examples (informative)",
        "annex_clauses": ["Pipe under a car park", "Open channel along a road"],
        "figures": ["Section through a filter drain", "Rainfall intensity against duration"],
        "labels": ["Pipe DN 300", "Filter F1", "Fill layer L2", "h = 1.2 m"],
        "edition": "Issue 2026 – fictional guideline, for testing only",
    },
}

SPECS = {
    "timber-de": ("de", "HBN 410", "Holztragwerke – Bemessung und Ausführung", _TIMBER, _DE),
    "facade-fr": ("fr", "NFA 220", "Ancrages de façades ventilées – Conception et exécution", _FACADE, _FR),
    "drainage-en": ("en", "DGN 31", "Drainage of roads and yards – Design guideline", _DRAINAGE, _EN),
}


def _fill(pattern: str, topic: str, rng: random.Random, table: int, decimal: str) -> str:
    values = {
        "topic": topic,
        "table": str(table),
        "small": f"{rng.randint(2, 9)}{decimal}{rng.randint(1, 9)}",
        "area": f"{rng.randint(1, 4)}{decimal}{rng.randint(10, 95)}",
        "pct": str(rng.randint(12, 20)),
        "span": str(rng.randint(8, 25)),
    }
    return re.sub(r"\{(topic|table|small|area|pct|span)\}", lambda match: values[match.group(1)], pattern)


def build(key: str, size: str = "full", variant: int = 0) -> Document:
    """The document `key` (`timber-de`, `facade-fr`, `drainage-en`); `size` `full` (15–30 pages) or `small` (3–5);
    another `variant` draws other sentences and values (a document measured once, not tuned to)."""
    language, code, title, outline, words = SPECS[key]
    meta = _META[language]
    rng = random.Random(f"{key}-{size}" + (f"-{variant}" if variant else ""))
    decimal = "." if language == "en" else ","
    small = size == "small"
    if small:  # two chapters, one of them with subclauses, the annex: every feature on a few pages
        outline = [outline[0], outline[2]]
    blocks: list[Block] = [Block("title", code), Block("title", title), Block("title", meta["edition"]), Block("toc", meta["contents"])]
    blocks.append(Block("heading", meta["foreword"], level=1))
    notes = iter(words["notes"] * 4)
    tables = iter(_TABLES[language])
    figures = iter(enumerate(meta["figures"], start=1))
    table_number = 0

    def paragraphs(topic: str, count: int, note: bool = False) -> None:
        for k in range(count):
            chosen = rng.sample(words["sentences"], 3 if small else rng.randint(3, 5))
            text = " ".join(_fill(sentence, topic, rng, max(1, table_number), decimal) for sentence in chosen)
            if note and k == 0:
                end = re.search(r"(?<=[^\W\d_]{4})[.;,](?=\s|$)", text)  # after a word, as footnotes are placed
                first_end = end.start() if end else len(text)
                text = text[:first_end] + f"[^{next(notes)}]" + text[first_end:]
            blocks.append(Block("para", text))

    paragraphs(title.split(" – ")[0].lower() if language != "de" else title.split(" – ")[0], 1 if small else 2)
    counters = [0, 0, 0]
    for chapter, (chapter_title, sections) in enumerate(outline, start=1):
        counters[0] += 1
        blocks.append(Block("heading", chapter_title, level=1, number=str(counters[0]), numbered=True))
        paragraphs(chapter_title, 1)
        counters[1] = 0
        for index, section in enumerate(sections):
            name, subs = (section, []) if isinstance(section, str) else section
            counters[1] += 1
            blocks.append(Block("heading", name, level=2, number=f"{counters[0]}.{counters[1]}", numbered=True))
            paragraphs(name, 1 if small else 2, note=index == 0)
            counters[2] = 0
            for sub in subs:
                counters[2] += 1
                blocks.append(Block("heading", sub, level=3, number=f"{counters[0]}.{counters[1]}.{counters[2]}", numbered=True))
                paragraphs(sub, 1 if small else rng.randint(2, 3), note=sub == subs[-1])
            if (chapter == 3 or (small and chapter == 2)) and index < 2:
                table = next(tables, None)
                if table is not None:
                    table_number += 1
                    caption, header, rows = table
                    blocks.append(Block("table", caption, number=str(table_number), header=header, rows=rows))
                    paragraphs(name, 1)
            if (chapter in (4, 5) and index == 0) or (small and chapter == 2 and index == 2):
                found = next(figures, None)
                if found is not None:
                    number, caption = found
                    kind = "shapes" if number == 1 else "png"
                    blocks.append(
                        Block("figure", caption, number=str(number), figure=kind, labels=meta["labels"] if kind == "shapes" else [])
                    )
                    paragraphs(name, 1)
    if not small:
        for table in tables:  # the third table in the last chapter
            table_number += 1
            caption, header, rows = table
            blocks.append(Block("table", caption, number=str(table_number), header=header, rows=rows))
            paragraphs(caption, 1)
    annex = f"{meta['annex']} A"
    blocks.append(Block("heading", f"{annex} – {meta['annex_title']}", level=1, number=annex))
    paragraphs(meta["annex_title"], 1)
    for k, clause in enumerate(meta["annex_clauses"], start=1):
        blocks.append(Block("heading", clause, level=2, number=f"A.{k}"))
        paragraphs(clause, 1 if small else 2)
    if small:
        found = next(figures, None)
        if found is not None:
            number, caption = found
            blocks.append(Block("figure", caption, number=str(number), figure="png"))
            paragraphs(caption, 1)
    blocks.append(Block("heading", meta["references"], level=1))
    for k in range(3 if small else 6):
        blocks.append(Block("para", f"[{k + 1}] {code}-{k + 10}: {rng.choice(words['sentences'])[:60].rstrip(' ,;')}, {2000 + k}."))
    return Document(
        (key if size == "full" else f"{key}-small") + (f"-v{variant}" if variant else ""),
        language,
        code,
        title,
        blocks,
        meta,
        hyphenated=words["hyphenated"],
        soft=words["soft"],
    )
