"""Score imports of the office-producer PDFs against the truth computed from their source documents.

    .venv/bin/python bench/producers/check_documents.py DIR [--json] [--details]

DIR holds what `make_documents.py` wrote: for every `KEY.truth.json`, each `KEY.*.pdf` is imported
(with its outline when it has one, the outline ignored otherwise) and compared with the truth on what
`bench/import_accuracy.py` does not measure: the tree (path, title, PDF page of every heading of the
source), captioned tables with their header row and rows, super- and subscripts written raised,
footnotes as `[^n]` with their text, figures (id = file stem, rendered large enough, labels kept
out of the text), no-break spaces before `:`/`;`, hyphenated and soft-hyphenated words, and the
printed contents as a node of its own (no dot leaders in any other node's text).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from import_accuracy import stripped_copy  # noqa: E402  # the outline-stripped copy, made as the accuracy bench makes it

from normcli.bundle import parse_bundle  # noqa: E402
from normcli.importers import build_draft  # noqa: E402
from normcli.importers.writer import write_bundle  # noqa: E402

_MARKER = re.compile(r"^<!--\s*page\s+\S+\s+pdf=(\d+)")
_SUP = dict(zip("0123456789+-=()ni", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ", strict=True))
_SUB = dict(zip("0123456789+-=()aeoxhklmnpstiruvj", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜᵢᵣᵤᵥⱼ", strict=True))
_BACK = {v: k for k, v in [*_SUP.items(), *_SUB.items()]} | {"⁻": "-", "₋": "-"}
# the size of each figure as the source sets it (cm): the rendering must cover at least 80 % of it
_FIGURE_CM = {("odt", "shapes"): (14.0, 3.5), ("odt", "png"): (12.0, 6.0), ("html", "shapes"): (12.1, 4.0), ("html", "png"): (12.1, 6.0)}


_LISTS = ["Table of Contents", "List of Tables", "List of Figures", "Tabellenverzeichnis", "Abbildungsverzeichnis", "Liste des tableaux", "Liste des figures",
          "Table des figures"]  # fmt: skip


def key(text: str) -> str:
    """Text reduced for comparison: scripts written plainly, case, accents and punctuation ignored."""
    text = "".join(_BACK.get(c, c) for c in text)
    text = re.sub(r"[\^_]\{([^{}]*)\}", r"\1", text)
    decomposed = unicodedata.normalize("NFKD", text)
    return re.sub(r"[^a-z0-9]+", "", "".join(c for c in decomposed if not unicodedata.combining(c)).lower())


def script_forms(kind: str, base: str, content: str) -> list[str]:
    """How an import may write a raised or lowered run after its base: Unicode, or `^{…}` / `_{…}`."""
    table, mark = (_SUP, "^") if kind == "sup" else (_SUB, "_")
    forms = [f"{base}{mark}{{{content}}}"]
    if all(c in table for c in content.replace("−", "-")):
        forms.append(base + "".join(table[c] for c in content.replace("−", "-")))
    return forms


def pipe_rows(markdown: str) -> list[list[str]]:
    """The rows of a pipe table (the rule line left out)."""
    rows = []
    for line in markdown.splitlines():
        line = line.strip()
        if not line.startswith("|") or re.fullmatch(r"\|(?:\s*:?-{3,}:?\s*\|)+", line):
            continue
        rows.append([cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", line.strip("|"))])
    return rows


def score(pdf: Path, facts: dict, workspace: Path, use_outline: bool = True, source: Path | None = None) -> dict:
    """Import one PDF (or `source`, its stripped copy) and compare it with the truth."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    has_outline = next(iter(document.get_toc(max_depth=8)), None) is not None
    producer = document.get_metadata_dict().get("Producer", "")
    document.close()
    started = time.perf_counter()
    draft = build_draft(source or pdf, "pdf", use_outline=use_outline)
    seconds = time.perf_counter() - started
    written = write_bundle(workspace, draft, f"CHECK {pdf.name}", "1", facts["language"], "check", force=True)
    bundle = parse_bundle(written)
    text = written.read_text(encoding="utf-8")
    pdf_page: dict[int, int] = {}
    page = 1
    for number, line in enumerate(text.split("\n"), start=1):
        match = _MARKER.match(line)
        page = int(match.group(1)) if match else page
        pdf_page[number] = page
    nodes = [(key(node.path), key(node.title), pdf_page.get(node.line, 1)) for node in bundle.nodes]
    pages = facts.get("pages", {}).get(pdf.name, {})
    tree_found, tree_paged, misses = 0, 0, []
    for entry in facts["tree"]:
        want_path, want_title = key(entry["path"]), key(entry["title"])
        hits = [n for n in nodes if n[0] == want_path and n[1] == want_title]
        if hits:
            tree_found += 1
            if entry["path"] in pages and any(n[2] == pages[entry["path"]] for n in hits):
                tree_paged += 1
            elif entry["path"] in pages:
                misses.append(f"{entry['path']} p{pages[entry['path']]}≠{hits[0][2]}")
        else:
            misses.append(f"{entry['path']} {entry['title']}")
    # tables
    by_number = {str(table.number): table for table in bundle.tables if table.number}
    tables_found = header_right = rows_right = 0
    table_notes = []
    for expected in facts["tables"]:
        table = by_number.get(expected["number"])
        if table is None:
            table_notes.append(f"table {expected['number']} missing")
            continue
        tables_found += 1
        rows = pipe_rows(table.markdown)
        if rows and [key(c) for c in rows[0]] == [key(c) for c in expected["header"]]:
            header_right += 1
        else:
            table_notes.append(f"table {expected['number']} header {rows[:1]}")
        if [[key(c) for c in row] for row in rows[1:]] == [[key(c) for c in row] for row in expected["rows"]]:
            rows_right += 1
        else:
            table_notes.append(f"table {expected['number']} rows {rows[1:]}")
    uncaptioned = sum(1 for table in bundle.tables if not table.number)
    # scripts
    flat = text.replace("\n", " ")
    scripts = {tuple(s) for s in facts["scripts"] if s[1]}
    kept = [s for s in scripts if any(form in flat for form in script_forms(*s))]
    lost = sorted(f"{b}{'^' if k == 'sup' else '_'}{c}" for k, b, c in scripts - set(kept))
    # footnotes: the note's text as `[^n]: text`, and `[^n]` cited in the text
    defined = re.findall(r"^\[\^([^\]]+)\]: (.*)$", text, re.M)  # pairs: a label may come again (notes numbered per chapter)
    notes_ok = 0
    other = []
    for note in facts["footnotes"]:
        pair = next(((label, body) for label, body in defined if key(body).startswith(key(note)[:30])), None)
        if pair is not None and re.search(rf"\S\[\^{re.escape(pair[0])}\](?!:)", text):
            notes_ok += 1
            defined.remove(pair)  # each note found once: the documents repeat the texts of their notes
        else:
            other.append(f"note missing: {note[:40]}")
    # figures
    figures_ok = {"found": 0, "id": 0, "size": 0, "labels": 0}
    kind_of = "html" if any(word in pdf.name for word in ("chromium", "weasyprint", "wkhtmltopdf")) else "odt"
    by_fig = {str(figure.number): figure for figure in bundle.figures if figure.number}
    # the bundle reads no number from `Figure A.1` (the core knows `A1`, not `A.1`): such a figure is found by its id
    by_fig.update({figure.id.removeprefix("fig-").upper(): figure for figure in bundle.figures if not figure.number})
    body_text = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", text)
    for expected in facts["figures"]:
        figure = by_fig.get(expected["number"])
        if figure is None:
            other.append(f"figure {expected['number']} missing")
            continue
        figures_ok["found"] += 1
        if figure.file and Path(figure.file).stem == figure.id:
            figures_ok["id"] += 1
        if figure.file:
            image = written.parent / figure.file
            width, height = int.from_bytes(image.read_bytes()[16:20], "big"), int.from_bytes(image.read_bytes()[20:24], "big")
            want = _FIGURE_CM[(kind_of, expected["kind"])]
            if width >= 0.8 * want[0] / 2.54 * 150 and height >= 0.8 * want[1] / 2.54 * 150:
                figures_ok["size"] += 1
            else:
                other.append(f"figure {expected['number']} rendered {width}x{height} px")
        if not any(label in body_text for label in expected["labels"]):
            figures_ok["labels"] += 1
        else:
            other.append(f"figure {expected['number']} labels in the text")
    nbsp_ok = sum(1 for phrase in facts["nbsp"] if phrase in text)
    other += [f"no nbsp: {phrase}" for phrase in facts["nbsp"] if phrase not in text]
    other += [f"hyphen: {word}" for word in facts["hyphenated"] if word not in text or _lost_hyphen(word, text)]
    other += [f"soft: {word}" for word in facts["soft"] if word not in text or not _no_split(word, text)]
    hyphen_ok = sum(1 for word in facts["hyphenated"] if word in text and not _lost_hyphen(word, text))
    soft_ok = sum(1 for word in facts["soft"] if word in text and _no_split(word, text))
    contents_key = key(facts["contents"])
    lists = {contents_key, "contents", *(key(title) for title in _LISTS)}  # the contents, and lists of tables and figures
    contents_nodes = [node for node in bundle.nodes if key(node.title) in lists]
    leaders = [node.path for node in bundle.nodes if node not in contents_nodes and re.search(r"\.{5,}\s*\d", node.text)]
    return {
        "pdf": pdf.name,
        "producer": producer,
        "treeShare": round(100 * tree_found / max(1, len(facts["tree"])), 1),
        "outline": has_outline,
        "pages": draft.pages,
        "seconds": round(seconds, 2),
        "tree": f"{tree_found}/{len(facts['tree'])}",
        "treePages": f"{tree_paged}/{len([e for e in facts['tree'] if e['path'] in pages])}" if pages else "–",
        "tables": f"{tables_found}/{len(facts['tables'])}",
        "header": f"{header_right}/{len(facts['tables'])}",
        "rows": f"{rows_right}/{len(facts['tables'])}",
        "uncaptioned": uncaptioned,
        "scripts": f"{len(kept)}/{len(scripts)}",
        "footnotes": f"{notes_ok}/{len(facts['footnotes'])}",
        "figures": "/".join(str(v) for v in figures_ok.values()) + f" of {len(facts['figures'])}",
        "nbsp": f"{nbsp_ok}/{len(facts['nbsp'])}",
        "hyphens": f"{hyphen_ok + soft_ok}/{len(facts['hyphenated']) + len(facts['soft'])}",
        "contents": "yes" if contents_nodes and not leaders else ("no" if not contents_nodes else f"leaders in {leaders[:3]}"),
        "misses": misses[:10],
        "tableNotes": table_notes[:6],
        "lostScripts": lost[:10],
        "other": other[:12],
        "warnings": draft.warnings[:5],
    }


def _lost_hyphen(word: str, text: str) -> bool:
    """Whether a compound written with hyphens appears with one of them dropped (`Stoß-an-StoßVerbindung`)."""
    cuts = [k for k, c in enumerate(word) if c == "-"]
    return any(word[:k] + word[k + 1 :] in text for k in cuts)


def _no_split(word: str, text: str) -> bool:
    """A word with soft hyphens in the source is never written with a hyphen or a space inside it."""
    for cut in range(3, len(word) - 2):
        if f"{word[:cut]}-{word[cut:]}" in text or f"{word[:cut]} {word[cut:].lower()}" in text:
            return False
    return True


def main(argv: list[str] | None = None) -> int:
    """Print one row per PDF (Markdown), or JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--details", action="store_true", help="also print the misses of each PDF")
    parser.add_argument(
        "--modes", action="store_true", help="also the tree %% with the outline ignored and stripped (as is / ignored / stripped)"
    )
    parser.add_argument("--match", action="append", default=[], help="only PDFs whose name holds this (repeatable)")
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        (workspace / "norms").mkdir()
        for truth_file in sorted(args.folder.glob("*.truth.json")):
            facts = json.loads(truth_file.read_text(encoding="utf-8"))
            stem = truth_file.name.removesuffix(".truth.json")
            for pdf in sorted(args.folder.glob(f"{stem}.*.pdf")):
                if args.match and not any(word in pdf.name for word in args.match):
                    continue
                try:
                    row = score(pdf, facts, workspace)
                    if args.modes:  # the tree with the outline ignored, and from a copy with the outline stripped
                        ignored = score(pdf, facts, workspace, use_outline=False) if row["outline"] else row
                        stripped = score(pdf, facts, workspace, source=stripped_copy(pdf, workspace)) if row["outline"] else row
                        row["treeModes"] = f"{row['treeShare']} / {ignored['treeShare']} / {stripped['treeShare']}"
                        row["missesIgnored"] = ignored["misses"]
                        row["missesStripped"] = stripped["misses"]
                    rows.append(row)
                except Exception as exc:  # every failure is a finding, reported in its row
                    rows.append({"pdf": pdf.name, "error": f"{type(exc).__name__}: {exc}"})
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    columns = ["pdf", "producer", "pages", "tree", *(["treeModes"] if args.modes else []), "treePages", "tables", "header", "rows", "uncaptioned", "scripts", "footnotes", "figures", "nbsp",
               "hyphens", "contents"]  # fmt: skip
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for row in rows:
        print("| " + " | ".join(str(row.get(c, row.get("error", ""))) for c in columns) + " |")
    if args.details:
        for row in rows:
            for field in ("misses", "missesIgnored", "missesStripped", "tableNotes", "lostScripts", "other", "warnings"):
                if row.get(field):
                    print(f"{row['pdf']} {field}: {row[field]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
