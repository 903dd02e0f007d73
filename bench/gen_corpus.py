"""Generate a synthetic normcli workspace for the benchmarks: N norms × M clauses of French and German text.

The text is made here from our own word lists and sentence patterns (nothing is copied from a real
norm): accents, ß, numbers with units, `$$…$$` formulas, captioned pipe tables, figures (a tiny PNG
each), pages and cross-references (`voir 4.2.3`, `Ziffer 2.1`, `SIA 5003, 4.4.3`, `annexe A`).
Everything comes from one seed, so a size and a seed always give the same bytes.

Besides the plain norms the workspace holds one norm whose tree has 2,000 nodes (for `toc` and
`subtree`) and one clause of about 1 MB (for `section` windows). `bench-manifest.json` at the
workspace root records the counts, those two places and the 50 search keywords the benchmark asks.

    python bench/gen_corpus.py OUT --size small          # 20 norms × 500 clauses
    python bench/gen_corpus.py OUT --size large          # 200 norms × 1,000 clauses
    python bench/gen_corpus.py OUT --norms 50 --sections 300 --seed 7
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import struct
import sys
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

GENERATOR_VERSION = 1
MANIFEST = "bench-manifest.json"
SIZES = {"tiny": (5, 100), "small": (20, 500), "large": (200, 1000), "xlarge": (1000, 1000)}
TREE_NODES = 2000
BIG_SECTION_CHARS = 1_000_000
DEFAULT_SEED = 6
COMMON_SHARE = 0.5  # the share of clauses that carry the common word `béton` / `Beton`
RARE_PLACES = 5  # how many clauses carry each rare word

# -- word lists (ours) --------------------------------------------------------------------------
# French nouns as `gender:noun`, most frequent first (a Zipf law picks them).
_FR_NOUNS = (  # noqa: SIM905 - a word list reads best as one string
    "f:charge m:coefficient f:valeur f:résistance f:action m:élément f:structure f:armature f:contrainte f:section "
    "m:calcul f:vérification f:situation m:projet f:dalle f:poutre m:appui m:mur f:fondation m:sol f:neige m:vent "
    "f:température m:séisme f:déformation f:fissure m:enrobage f:portée f:épaisseur f:hauteur f:largeur f:surface "
    "m:acier m:bois f:maçonnerie m:ancrage m:recouvrement f:flèche m:moment m:effort f:traction f:compression "
    "m:cisaillement f:torsion f:durabilité f:exposition f:classe f:catégorie f:zone f:altitude f:toiture f:façade "
    "m:plancher m:pilier f:colonne m:tablier f:culée f:pile m:remblai f:semelle m:pieu f:paroi m:tirant f:précontrainte "
    "m:fluage m:retrait f:relaxation f:fatigue m:incendie f:exécution m:contrôle f:tolérance f:mesure f:exigence "
    "m:matériau m:granulat m:liant m:mortier f:soudure m:boulon f:cheville f:platine m:raidisseur f:membrure f:âme "
    "f:aile m:nœud m:assemblage f:liaison f:rigidité f:ductilité f:stabilité m:flambement m:déversement m:voilement "
    "f:vibration f:fréquence m:amortissement f:accélération f:sollicitation f:combinaison f:probabilité f:fiabilité"
).split()
_FR_ADJECTIVES = [
    item.split("|")
    for item in (  # noqa: SIM905
        "caractéristique|caractéristique porteur|porteuse déterminant|déterminante admissible|admissible "
        "minimal|minimale maximal|maximale horizontal|horizontale vertical|verticale longitudinal|longitudinale "
        "transversal|transversale accidentel|accidentelle permanent|permanente variable|variable réduit|réduite "
        "effectif|effective nominal|nominale moyen|moyenne local|locale global|globale élastique|élastique "
        "plastique|plastique fragile|fragile ductile|ductile préfabriqué|préfabriquée armé|armée précontraint|précontrainte "
        "extérieur|extérieure intérieur|intérieure supérieur|supérieure inférieur|inférieure linéaire|linéaire "
        "sismique|sismique thermique|thermique statique|statique dynamique|dynamique nécessaire|nécessaire"
    ).split()
]
_FR_PARTICIPLES = [
    item.split("|")
    for item in (  # noqa: SIM905
        "vérifié|vérifiée déterminé|déterminée calculé|calculée limité|limitée augmenté|augmentée réduit|réduite "
        "justifié|justifiée pris|prise fixé|fixée majoré|majorée minoré|minorée contrôlé|contrôlée"
    ).split()
]
_DE_NOUNS = (  # noqa: SIM905 - a word list reads best as one string
    "f:Last m:Beiwert m:Wert m:Widerstand f:Einwirkung n:Bauteil n:Tragwerk f:Bewehrung f:Spannung m:Querschnitt "
    "f:Bemessung m:Nachweis f:Situation n:Projekt f:Platte m:Balken n:Auflager f:Wand n:Fundament m:Baugrund "
    "m:Schnee m:Wind f:Temperatur n:Erdbeben f:Verformung m:Riss f:Betondeckung f:Spannweite f:Dicke f:Höhe f:Breite "
    "f:Oberfläche m:Stahl n:Holz n:Mauerwerk f:Verankerung m:Übergreifungsstoß f:Durchbiegung n:Moment f:Kraft "
    "m:Zug m:Druck m:Schub f:Torsion f:Dauerhaftigkeit f:Exposition f:Klasse f:Kategorie f:Zone f:Meereshöhe n:Dach "
    "f:Fassade f:Decke f:Stütze f:Säule f:Fahrbahnplatte n:Widerlager m:Pfeiler f:Hinterfüllung m:Einzelfundament "
    "m:Pfahl m:Anker f:Vorspannung n:Kriechen n:Schwinden f:Relaxation f:Ermüdung m:Brand f:Ausführung f:Kontrolle "
    "f:Toleranz n:Maß f:Anforderung m:Baustoff f:Gesteinskörnung n:Bindemittel m:Mörtel f:Schweißnaht f:Schraube "
    "m:Dübel f:Fußplatte f:Steife m:Gurt m:Steg m:Flansch m:Knoten m:Anschluss f:Verbindung f:Steifigkeit "
    "f:Duktilität f:Stabilität n:Knicken n:Kippen n:Beulen f:Schwingung f:Frequenz f:Dämpfung f:Beschleunigung "
    "f:Beanspruchung f:Kombination f:Wahrscheinlichkeit f:Zuverlässigkeit f:Straße f:Straßenbrücke f:Größe f:Fußgängerbrücke"
).split()
_DE_ADJECTIVES = (  # noqa: SIM905 - a word list reads best as one string
    "charakteristisch tragend maßgebend zulässig minimal maximal horizontal vertikal außergewöhnlich ständig "
    "veränderlich reduziert wirksam nominell mittler örtlich global elastisch plastisch spröd duktil vorgefertigt bewehrt "
    "vorgespannt äußer inner ober unter linear seismisch thermisch statisch dynamisch erforderlich größt kleinst"
).split()
_DE_ARTICLE = {"m": ("der", "den", "dem"), "f": ("die", "die", "der"), "n": ("das", "das", "dem")}
_UNITS = ["kN", "kN/m", "kN/m²", "MPa", "N/mm²", "mm", "cm", "m", "m²", "‰", "%", "°C", "Hz", "m/s", "kg/m³", "ans", "Jahre"]
_SYMBOLS = [
    ("q", "k"),
    ("s", "k"),
    ("f", "ck"),
    ("f", "yd"),
    ("E", "d"),
    ("R", "d"),
    ("N", "Rd"),
    ("V", "Ed"),
    ("M", "Rd"),
    ("w", "k"),
    ("c", "nom"),
    ("\\sigma", "c"),
    ("\\tau", "Rd"),
    ("\\varepsilon", "s"),
    ("\\mu", "i"),
    ("\\psi", "0"),
]
_GREEK = ["\\gamma_{Q}", "\\gamma_{G}", "\\gamma_{M}", "\\eta", "\\alpha", "\\beta", "C_{e}", "C_{t}", "k_{c}", "\\kappa"]
_TITLE_WORDS_FR = [
    "Généralités",
    "Principes",
    "Domaine d'application",
    "Exigences",
    "Dispositions constructives",
    "Vérifications",
    "Valeurs de calcul",
]
_TITLE_WORDS_DE = [
    "Allgemeines",
    "Grundsätze",
    "Geltungsbereich",
    "Anforderungen",
    "Konstruktive Durchbildung",
    "Nachweise",
    "Bemessungswerte",
]
# Rare words: each is placed in exactly RARE_PLACES clauses of the whole corpus.
RARE_WORDS = [
    "surcharge glaciaire",
    "contre-fiche",
    "gousset",
    "œilleton",
    "chevêtre",
    "Frostkeilanker",
    "Kriechschwindzahl",
    "Schubknagge",
    "Fußplattenverdübelung",
    "Überhöhungsmaß",
    "Lärmschutzwandpfosten",
    "Zugbandöse",
]
_PREFIXES = ["SIA", "DIN", "EN", "VSS", "SN", "ISO"]


def norm_code(index: int) -> str:
    """The code of the `index`-th generated norm: fictional numbers, real-looking prefixes."""
    prefix = _PREFIXES[index % len(_PREFIXES)]
    number = 5000 + index
    return f"EN {number}-1" if prefix == "EN" else f"{prefix} {number}"


def slug(code: str) -> str:
    """The folder name of a code (`SIA 5003` → `sia-5003`)."""
    return code.lower().replace(" ", "-")


def _zipf_weights(count: int) -> list[float]:
    total = 0.0
    cumulative = []
    for rank in range(count):
        total += 1.0 / (rank + 1.5)
        cumulative.append(total)
    return cumulative


_FR_CUM = _zipf_weights(len(_FR_NOUNS))
_DE_CUM = _zipf_weights(len(_DE_NOUNS))


def _png(width: int = 8, height: int = 8) -> bytes:
    """A tiny grey PNG, made here so that figures point at real image files."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + bytes([160]) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


PNG = _png()

# -- the clause tree ----------------------------------------------------------------------------


def clause_tree(
    count: int, rng: random.Random, chapters: int | None = None, max_depth: int = 5, annex: str = "Annexe"
) -> list[tuple[str, int]]:
    """`count` clause paths with their depth, in reading order: a preface, numbered chapters, an annex."""
    if count <= 0:
        return []
    nodes: list[tuple[str, int]] = [("", 1)]  # "" stands for the unnumbered preface
    annex_count = max(0, count // 30) if count >= 20 else 0
    numbered = count - 1 - annex_count
    if numbered > 0:
        nodes.extend(_numbered(numbered, rng, chapters or max(2, min(20, round(numbered**0.5 / 2.5))), max_depth, ""))
    if annex_count:
        nodes.append((f"{annex} A", 1))
        nodes.extend(_numbered(annex_count - 1, rng, 1, max_depth, "A", skip_head=True))
    return nodes[:count]


def _numbered(count: int, rng: random.Random, chapters: int, max_depth: int, prefix: str, skip_head: bool = False) -> list[tuple[str, int]]:
    """A numbered clause tree of exactly `count` nodes in `chapters` chapters (a random walk per chapter)."""
    chapters = max(1, min(chapters, count))
    cuts = sorted(rng.sample(range(1, count), chapters - 1)) if chapters > 1 else []
    sizes = [b - a for a, b in zip([0, *cuts], [*cuts, count], strict=True)]
    down = {1: 1.0, 2: 0.6, 3: 0.35, 4: 0.15, 5: 0.05}
    out: list[tuple[str, int]] = []
    for chapter, size in enumerate(sizes, start=1):
        head = prefix or str(chapter)
        stack = [head]
        numbers: list[int] = []
        remaining = size
        if not skip_head:
            out.append((head, 1))
            remaining -= 1
        while remaining > 0:
            depth = len(numbers) + 1
            roll = rng.random()
            if not numbers or (depth < max_depth and roll < down.get(depth, 0.05)):
                numbers.append(1)
            elif len(numbers) > 1 and roll > 0.75:
                numbers.pop()
                numbers[-1] += 1
            else:
                numbers[-1] += 1
            path = ".".join([stack[0], *map(str, numbers)])
            out.append((path, len(numbers) + 1))
            remaining -= 1
    return out


# -- sentences ----------------------------------------------------------------------------------


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _number(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.4:
        return str(rng.randint(1, 500))
    if roll < 0.8:
        return f"{rng.randint(0, 99)},{rng.randint(0, 99):02d}"
    return f"{rng.randint(1, 9)} {rng.randint(0, 999):03d}"


def _symbol(rng: random.Random) -> str:
    base, sub = rng.choice(_SYMBOLS)
    return f"${base}_{{{sub}}}$"


@dataclass
class _Context:
    """What a norm's sentences may refer to: its own paths, the other codes, its figure and table numbers."""

    rng: random.Random
    language: str
    paths: list[str]
    others: list[str]
    figures: int = 0
    tables: int = 0
    formulas: int = 0
    extra: dict[str, int] = field(default_factory=dict)


def _fr_np(c: _Context) -> tuple[str, str]:
    gender, noun = c.rng.choices(_FR_NOUNS, cum_weights=_FR_CUM)[0].split(":", 1)
    if c.rng.random() < 0.5:
        adjective = c.rng.choice(_FR_ADJECTIVES)[1 if gender == "f" else 0]
        noun = f"{noun} {adjective}"
    article = "l'" if noun[0] in "aeéèêiouâ" else ("la " if gender == "f" else "le ")
    return gender, article + noun


def _de_np(c: _Context, case: int = 0) -> str:
    gender, noun = c.rng.choices(_DE_NOUNS, cum_weights=_DE_CUM)[0].split(":", 1)
    article = _DE_ARTICLE[gender][case]
    if c.rng.random() < 0.5:
        ending = "en" if case == 2 or (case == 1 and gender == "m") else "e"
        return f"{article} {c.rng.choice(_DE_ADJECTIVES)}{ending} {noun}"
    return f"{article} {noun}"


def _ref(c: _Context, bare: bool = False) -> str:
    """A cross-reference: `voir 4.2.1`, `Ziffer 2.1`, `SIA 5003, 4.4.3`, `annexe A`, `EN 1990` (bare: without `voir`)."""
    rng = c.rng
    roll = rng.random()
    path = rng.choice(c.paths) if c.paths else "1"
    if roll < 0.45:
        return path if bare else ("voir " if c.language == "fr" else "siehe ") + path
    if roll < 0.7:
        return ("chiffre " if c.language == "fr" else "Ziffer ") + path
    if roll < 0.9 and c.others:
        return f"{rng.choice(c.others)}, {path}"
    return ("annexe A" if c.language == "fr" else "Anhang A") if rng.random() < 0.5 else "EN 1990"


def _fr_sentence(c: _Context) -> str:
    rng = c.rng
    gender, np = _fr_np(c)
    pp = rng.choice(_FR_PARTICIPLES)[1 if gender == "f" else 0]
    kind = rng.randrange(10)
    if kind == 0:
        return f"{_cap(np)} doit être {pp} pour chaque situation de projet."
    if kind == 1:
        return f"{_cap(np)} ne doit pas dépasser {_number(rng)} {rng.choice(_UNITS)} ({_ref(c)})."
    if kind == 2:
        return f"La valeur de calcul {_symbol(rng)} se déduit de {_fr_np(c)[1]} avec un coefficient de {_number(rng)}."
    if kind == 3:
        return f"Pour {np}, on admettra {_fr_np(c)[1]} selon {_ref(c, bare=True)}."
    if kind == 4:
        return f"{_cap(np)} est {pp} en tenant compte de {_fr_np(c)[1]} et de {_fr_np(c)[1]}."
    if kind == 5:
        return f"Lorsque {np} dépasse {_number(rng)} {rng.choice(_UNITS)}, les exigences du chiffre {_ref(c, bare=True)} s'appliquent."
    if kind == 6:
        return f"On vérifiera que {_symbol(rng)} ≤ {_symbol(rng)} ; à défaut, {np} sera {pp}."
    if kind == 7:
        return f"Les dispositions relatives à {np} figurent au tableau {max(1, c.tables)} et à la figure {max(1, c.figures)}."
    if kind == 8:
        return f"{_cap(np)} peut être {pp} si {_fr_np(c)[1]} ne dépasse pas {_number(rng)} {rng.choice(_UNITS)}."
    return f"Dans les zones exposées, {np} doit faire l'objet d'un contrôle particulier."


def _de_sentence(c: _Context) -> str:
    rng = c.rng
    np = _de_np(c)
    kind = rng.randrange(10)
    if kind == 0:
        return f"{_cap(np)} ist für jede Bemessungssituation nachzuweisen."
    if kind == 1:
        return f"{_cap(np)} darf {_number(rng)} {rng.choice(_UNITS)} nicht überschreiten ({_ref(c)})."
    if kind == 2:
        return f"Der Bemessungswert {_symbol(rng)} ergibt sich aus {_de_np(c, 2)} mit einem Beiwert von {_number(rng)}."
    if kind == 3:
        return f"Für {_de_np(c, 1)} gilt {_de_np(c)} nach {_ref(c, bare=True)}."
    if kind == 4:
        return f"{_cap(np)} ist unter Berücksichtigung von Größe und Lage der Öffnungen zu bestimmen."
    if kind == 5:
        return f"Ist {np} größer als {_number(rng)} {rng.choice(_UNITS)}, so gelten die Anforderungen nach {_ref(c, bare=True)}."
    if kind == 6:
        return f"Es ist nachzuweisen, dass {_symbol(rng)} ≤ {_symbol(rng)} gilt; andernfalls ist {np} zu verstärken."
    if kind == 7:
        return f"Angaben über {_de_np(c, 1)} enthalten Tabelle {max(1, c.tables)} und Abbildung {max(1, c.figures)}."
    if kind == 8:
        return f"{_cap(np)} darf vereinfacht angenommen werden, sofern die Straße nicht gesperrt wird."
    return f"In exponierten Bereichen ist {np} besonders zu überwachen; das Maß der Überhöhung ist festzulegen."


def _common(c: _Context) -> str:
    """A sentence with the common word (`béton` / `Beton`), placed in about half of all clauses."""
    if c.language == "fr":
        return c.rng.choice(
            [
                "Le béton doit être mis en place et compacté avec soin.",
                f"La classe de résistance du béton est au moins C{c.rng.choice(['25/30', '30/37', '35/45'])}.",
                "L'enrobage du béton protège l'armature contre la corrosion.",
            ]
        )
    return c.rng.choice(
        [
            "Der Beton ist sorgfältig einzubringen und zu verdichten.",
            f"Die Festigkeitsklasse des Betons beträgt mindestens C{c.rng.choice(['25/30', '30/37', '35/45'])}.",
            "Die Betondeckung schützt die Bewehrung vor Korrosion; der Beton muss dicht sein.",
        ]
    )


def _paragraph(c: _Context, sentences: int) -> str:
    make = _fr_sentence if c.language == "fr" else _de_sentence
    return " ".join(make(c) for _ in range(sentences))


def _formula(c: _Context) -> str:
    c.formulas += 1
    rng = c.rng
    left = _symbol(rng).strip("$")
    factors = r" \, ".join(rng.sample(_GREEK, 2))
    base, sub = rng.choice(_SYMBOLS)
    return f"$$ {left} = {factors} \\, {base}_{{{sub}}} \\qquad ({c.formulas}) $$"


def _table(c: _Context) -> str:
    c.tables += 1
    rng = c.rng
    if c.language == "fr":
        head = f"Tableau {c.tables} – Valeurs de {_fr_np(c)[1]}"
        columns = ["Catégorie", "Valeur", "Remarque"]
        notes = ["selon 2.1", "valeur réduite", "—", "à vérifier"]
    else:
        head = f"Tabelle {c.tables} – Werte für {_de_np(c, 1)}"
        columns = ["Kategorie", "Wert", "Bemerkung"]
        notes = ["nach 2.1", "abgemindert", "—", "zu prüfen"]
    rows = [f"| {chr(65 + row)} | {_number(rng)} {rng.choice(_UNITS)} | {rng.choice(notes)} |" for row in range(rng.randint(2, 6))]
    return "\n".join([head, "", "| " + " | ".join(columns) + " |", "|---|---|---|", *rows])


def _figure(c: _Context, folder: Path) -> str:
    c.figures += 1
    caption = (
        f"Figure {c.figures} – Schéma de {_fr_np(c)[1]}" if c.language == "fr" else f"Abbildung {c.figures} – Skizze für {_de_np(c, 1)}"
    )
    (folder / "figures").mkdir(exist_ok=True)
    (folder / "figures" / f"fig-{c.figures}.png").write_bytes(PNG)
    return f"![{caption}](figures/fig-{c.figures}.png)"


def _body(c: _Context, folder: Path, depth: int, common: bool) -> list[str]:
    """The paragraphs of one clause: sentences, sometimes a formula, a table or a figure."""
    rng = c.rng
    blocks: list[str] = []
    paragraphs = 1 if depth == 1 else rng.choice((1, 1, 2, 2, 2, 3, 4))
    for number in range(paragraphs):
        text = _paragraph(c, rng.randint(1, 3) if depth > 1 else 1)
        if number == 0 and common:
            text = f"{_common(c)} {text}"
        blocks.append(text)
    roll = rng.random()
    if roll < 0.06:
        blocks.append(_formula(c))
    elif roll < 0.09:
        blocks.append(_table(c))
    elif roll < 0.1:
        blocks.append(_figure(c, folder))
    return blocks


def _title(c: _Context, depth: int) -> str:
    """A heading title: a noun (with an adjective, or a second noun), or a stock title such as `Généralités`."""
    rng = c.rng
    if rng.random() < 0.12:
        return rng.choice(_TITLE_WORDS_FR if c.language == "fr" else _TITLE_WORDS_DE)
    if c.language == "fr":
        gender, noun = rng.choices(_FR_NOUNS, cum_weights=_FR_CUM)[0].split(":", 1)
        roll = rng.random()
        if roll < 0.35:
            return _cap(f"{noun} {rng.choice(_FR_ADJECTIVES)[1 if gender == 'f' else 0]}")
        other = rng.choices(_FR_NOUNS, cum_weights=_FR_CUM)[0].split(":", 1)[1]
        return _cap(f"{noun} et {other}" if roll < 0.6 and other != noun else noun)
    noun = rng.choices(_DE_NOUNS, cum_weights=_DE_CUM)[0].split(":", 1)[1]
    other = rng.choices(_DE_NOUNS, cum_weights=_DE_CUM)[0].split(":", 1)[1]
    return f"{noun} und {other}" if rng.random() < 0.4 and other != noun else noun


def _big_text(c: _Context, chars: int) -> list[str]:
    """Paragraphs adding up to about `chars` characters, with a formula or table now and then."""
    blocks: list[str] = []
    total = 0
    while total < chars:
        roll = c.rng.random()
        block = _formula(c) if roll < 0.03 else _table(c) if roll < 0.05 else _paragraph(c, c.rng.randint(2, 5))
        blocks.append(block)
        total += len(block) + 2
    return blocks


# -- norms and the workspace --------------------------------------------------------------------


@dataclass
class NormPlan:
    """One norm to write: its code, language, clause count, and what is special about it."""

    index: int
    code: str
    language: str
    sections: int
    chapters: int | None = None
    max_depth: int = 5
    big_chars: int = 0
    rare: dict[int, list[str]] = field(default_factory=dict)


def write_norm(root: Path, plan: NormPlan, codes: list[str], seed: int) -> dict:
    """Write one bundle and its figures; returns what the manifest records about it."""
    rng = random.Random(f"{seed}:{plan.index}")
    language = plan.language
    edition = str(2000 + rng.randint(3, 25))
    folder = root / "norms" / slug(plan.code) / edition
    folder.mkdir(parents=True, exist_ok=True)
    tree = clause_tree(plan.sections, rng, plan.chapters, plan.max_depth, "Annexe" if language == "fr" else "Anhang")
    paths = [path for path, _ in tree if path]
    others = [code for code in codes if code != plan.code]
    c = _Context(rng, language, paths[:200], rng.sample(others, min(5, len(others))))
    subject = _title(c, 1)
    title = f"{subject} – règles de calcul" if language == "fr" else f"{subject} – Bemessungsregeln"
    scope = _paragraph(c, 2)
    requires = c.others[:1]
    lines = [
        "---",
        f"code: {plan.code}",
        f'edition: "{edition}"',
        f"title: {title}",
        f"language: {language}",
        f"scope: Norme synthétique pour les mesures de normcli. {scope}"
        if language == "fr"
        else f"scope: Synthetische Norm für die Messungen von normcli. {scope}",
        "published: true",
        "demo: true",
        f"requires: [{', '.join(requires)}]",
        "---",
    ]
    page = 1
    lines.append(f"<!-- page {page} -->")
    big_index = len(tree) // 2 if plan.big_chars else -1
    big_path = None
    for number, (path, depth) in enumerate(tree):
        if number and rng.random() < 0.35:
            page += 1
            lines.append(f"<!-- page {page} -->")
        preface = "Avant-propos" if language == "fr" else "Vorwort"
        heading = f"{path} {_title(c, depth)}" if path else preface
        lines.append(f"{'#' * min(depth, 6)} {heading}")
        lines.append("")
        if number == big_index:
            big_path = path
            blocks = _big_text(c, plan.big_chars)
        else:
            blocks = _body(c, folder, depth, rng.random() < COMMON_SHARE)
        for word in plan.rare.get(number, []):
            blocks.insert(
                1, f"Le cas échéant, prévoir {word} selon le détail." if language == "fr" else f"Gegebenenfalls ist {word} vorzusehen."
            )
        for block in blocks:
            lines.append(block)
            lines.append("")
    text = "\n".join(lines)
    (folder / ("norm.md")).write_text(text, encoding="utf-8", newline="\n")
    deepest = max((depth for _, depth in tree), default=0)
    chapters = [path for path, depth in tree if depth == 1 and path]
    sizes = {chapter: sum(1 for path, _ in tree if path == chapter or path.startswith(chapter + ".")) for chapter in chapters}
    return {
        "code": plan.code,
        "edition": edition,
        "language": language,
        "file": f"norms/{slug(plan.code)}/{edition}/norm.md",
        "sections": len(tree),
        "bytes": len(text.encode("utf-8")),
        "figures": c.figures,
        "depth": deepest,
        "biggestChapter": max(sizes, key=lambda key: sizes[key]) if sizes else None,
        "biggestChapterNodes": max(sizes.values()) if sizes else 0,
        "bigSection": big_path,
        "paths": paths[:: max(1, len(paths) // 20)][:20],
    }


def plan_norms(norms: int, sections: int, seed: int, tree_nodes: int = TREE_NODES, big_chars: int = BIG_SECTION_CHARS) -> list[NormPlan]:
    """What to write: norm 0 has the big tree, norm 1 (or 0) the ~1 MB clause; rare words are spread over all."""
    codes = [norm_code(index) for index in range(norms)]
    plans = [NormPlan(index, codes[index], "fr" if index % 2 == 0 else "de", sections) for index in range(norms)]
    if tree_nodes and plans:
        plans[0].sections = max(sections, tree_nodes)
        plans[0].chapters = 4
        plans[0].max_depth = 6
    if big_chars and plans:
        plans[1 if norms > 1 else 0].big_chars = big_chars
    rng = random.Random(f"{seed}:rare")
    for word in RARE_WORDS:
        for _ in range(RARE_PLACES):
            plan = rng.choice(plans)
            spot = rng.randrange(1, plan.sections) if plan.sections > 1 else 0
            plan.rare.setdefault(spot, []).append(word)
    return plans


def keywords(norms: list[dict]) -> dict[str, list[str]]:
    """The 50 keywords the benchmark asks, by kind: common, rare, accented, clause numbers, phrases and symbols."""
    clause_paths = []
    for norm in norms[:10]:
        clause_paths.extend(norm["paths"][1:3])
    fallback = ["1.1.1", "3.2", "2.3.1", "Annexe A", "1.2", "4.1.2", "3", "2.2.2", "1.3", "5.1"]
    clause = [*dict.fromkeys(["1", "2.1", "A.1", *clause_paths, *fallback])][:10]
    return {
        "common": ["beton", "charge", "Last", "valeur", "Wert", "Bemessung", "coefficient", "Nachweis", "Généralités", "Allgemeines"],
        "rare": [word.split(" ")[-1] if " " in word else word for word in RARE_WORDS[:10]],
        "accented": [
            "résistance",
            "Straße",
            "Strasse",
            "Größe",
            "Überhöhung",
            "sécurité",
            "Fußgängerbrücke",
            "contrôle",
            "élément",
            "Zuverlässigkeit",
        ],
        "clause": clause,
        "phrase": ["charge de neige", "valeur caractéristique", "Bemessungswert der Einwirkung", "zu verstärken", "situation de projet"],
        "symbol": ["kN/m²", "MPa", "gamma", "1990", "C30/37"],
    }


def generate(
    out: Path,
    norms: int,
    sections: int,
    seed: int = DEFAULT_SEED,
    tree_nodes: int = TREE_NODES,
    big_chars: int = BIG_SECTION_CHARS,
    label: str = "custom",
) -> dict:
    """Write a fresh workspace in `out` (its `norms/` is replaced) and return the manifest."""
    started = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(out / "norms", ignore_errors=True)
    shutil.rmtree(out / ".normcli", ignore_errors=True)
    plans = plan_norms(norms, sections, seed, tree_nodes, big_chars)
    codes = [plan.code for plan in plans]
    written = [write_norm(out, plan, codes, seed) for plan in plans]
    (out / "normcli.toml").write_text(f'name = "normcli benchmark corpus ({label})"\n', encoding="utf-8")
    tree = written[0] if written else {}
    big = next((norm for norm in written if norm["bigSection"]), None)
    manifest = {
        "generatorVersion": GENERATOR_VERSION,
        "label": label,
        "seed": seed,
        "norms": norms,
        "sectionsPerNorm": sections,
        "treeNodes": tree_nodes,
        "bigChars": big_chars,
        "totalSections": sum(norm["sections"] for norm in written),
        "bundleBytes": sum(norm["bytes"] for norm in written),
        "figures": sum(norm["figures"] for norm in written),
        "treeNorm": {
            "code": tree.get("code"),
            "sections": tree.get("sections"),
            "chapter": tree.get("biggestChapter"),
            "chapterNodes": tree.get("biggestChapterNodes"),
        },
        "bigSection": {"code": big["code"], "path": big["bigSection"]} if big else None,
        "keywords": keywords(written),
        "bundles": [{key: norm[key] for key in ("code", "edition", "language", "file", "sections", "bytes", "paths")} for norm in written],
        "seconds": round(time.perf_counter() - started, 2),
    }
    (out / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=1), encoding="utf-8")
    return manifest


def read_manifest(out: Path) -> dict | None:
    """The manifest of a generated workspace, or None when there is none (or it is unreadable)."""
    try:
        return json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def main(argv: list[str] | None = None) -> int:
    """Command line: generate a workspace of a named size or of `--norms` × `--sections`."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the workspace folder to write (its norms/ is replaced)")
    parser.add_argument("--size", choices=sorted(SIZES), default="small", help="a named size (default: small)")
    parser.add_argument("--norms", type=int, help="number of norms (overrides --size)")
    parser.add_argument("--sections", type=int, help="clauses per norm (overrides --size)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--tree-nodes", type=int, default=TREE_NODES, help="nodes of the big-tree norm (0: none)")
    parser.add_argument("--big-chars", type=int, default=BIG_SECTION_CHARS, help="characters of the big clause (0: none)")
    args = parser.parse_args(argv)
    norms, sections = SIZES[args.size]
    custom = args.norms is not None or args.sections is not None
    norms = args.norms if args.norms is not None else norms
    sections = args.sections if args.sections is not None else sections
    label = f"{norms}x{sections}" if custom else args.size
    manifest = generate(args.out, norms, sections, args.seed, args.tree_nodes, args.big_chars, label)
    print(
        f"{args.out}: {manifest['norms']} norms, {manifest['totalSections']:,} clauses, "
        f"{manifest['bundleBytes'] / 1e6:.1f} MB in {manifest['seconds']} s",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
