"""A robustness sweep of every command over a folder of PDFs never seen: ingest, then every read.

Usage: ``python bench/sweep.py PDF_DIR WORKSPACE [--max-pages 400] [--jobs 2] [--reads-only]``.
Each PDF is ingested twice through the CLI, as a user would (edition ``1`` with its outline,
edition ``2`` with ``--no-outline``), at most ``--jobs`` at a time, under ``nice``. Then ``check``
and, per bundle, ``toc``, ``subtree``, ``section`` on sampled paths, ``search``, ``corpus``,
``xrefs``, ``figure`` and ``table`` for every listed id, each with and without ``--json``, and a
``batch`` of them. Every JSON answer is checked against the shapes of SPEC §3/§6 and every exit
code against §4. It prints one line per problem and a summary; ``WORKSPACE/sweep.jsonl`` keeps
the ingest records (exit code, seconds, stderr). It is a finder of bugs, not a benchmark.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

EXIT_CODES = {0, 1, 2, 3, 4, 130}
ERROR_CODES = {"not_found", "invalid_argument", "workspace_error"}
NODE_ID = re.compile(r"^[0-9a-f]{32}$")
CITATION = re.compile(r"^\[[^\[\],]+:[^\[\],]+(?: \(draft\))?, (?:[^\[\]]|\[[^\[\]]*\])+?(?:, p\. \d+)?\]$")
NORMCLI = [str(Path(sys.executable).parent / "normcli")]
PROBLEMS: list[str] = []


def problem(text: str) -> None:
    """Record and print one problem found."""
    PROBLEMS.append(text)
    print("PROBLEM", text, flush=True)


def run(args: list[str], timeout: float = 300, stdin: str | None = None) -> tuple[int, str, str, float]:
    """Run one normcli command at low priority: exit code, stdout, stderr, seconds."""
    start = time.perf_counter()
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120"}
    try:
        done = subprocess.run(
            ["nice", "-n", "19", *NORMCLI, *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
            input=stdin,
        )
    except subprocess.TimeoutExpired:
        return -9, "", f"timeout after {timeout} s", time.perf_counter() - start
    return done.returncode, done.stdout, done.stderr, time.perf_counter() - start


def pdf_pages(path: Path) -> int:
    """The page count of a PDF (0 when pdfium cannot open it)."""
    import pypdfium2 as pdfium

    try:
        document = pdfium.PdfDocument(str(path))
    except Exception:
        return 0
    try:
        return len(document)
    finally:
        document.close()


def ingest_one(workspace: Path, pdf: Path, number: int, outline: bool) -> dict[str, Any]:
    """Ingest one PDF into the workspace and check what it left behind."""
    edition = "1" if outline else "2"
    code = f"DOC {number}"
    args = ["--workspace", str(workspace), "ingest", str(pdf), "--code", code, "--edition", edition, "--json"]
    if not outline:
        args.append("--no-outline")
    rc, out, err, seconds = run(args, timeout=900)
    record = {"pdf": pdf.name, "code": code, "edition": edition, "rc": rc, "seconds": round(seconds, 2)}
    record["stderr"] = err.strip()[-2000:]
    where = f"ingest {pdf.name} ({code}:{edition})"
    if rc not in EXIT_CODES:
        problem(f"{where}: exit code {rc}: {err.strip()[-300:]}")
    if "Traceback" in err or "Traceback" in out:
        problem(f"{where}: traceback: {err.strip()[-300:]}")
    if rc == 4:
        problem(f"{where}: internal error: {err.strip()[-300:]}")
    bundle = workspace / "norms" / f"doc-{number}" / edition
    if rc == 0:
        if not list(bundle.glob("norm*.md")):
            problem(f"{where}: exit 0 but no bundle in {bundle}")
        try:
            json.loads(out)
        except ValueError:
            problem(f"{where}: --json stdout is not one JSON document")
    elif bundle.exists():
        problem(f"{where}: failed (exit {rc}) but left {bundle}")
    return record


def ingest_all(workspace: Path, pdfs: list[Path], max_pages: int, jobs: int) -> None:
    """Phase 1: every PDF, with and without its outline, two at a time."""
    log = workspace / "sweep.jsonl"
    done = set()
    if log.exists():
        for line in log.read_text().splitlines():
            item = json.loads(line)
            done.add((item["pdf"], item["edition"]))
    tasks = []
    for number, pdf in enumerate(pdfs, 1):
        pages = pdf_pages(pdf)
        if pages > max_pages:
            print(f"skip {pdf.name}: {pages} pages", flush=True)
            continue
        for outline in (True, False):
            if (pdf.name, "1" if outline else "2") not in done:
                tasks.append((number, pdf, outline))
    start = time.perf_counter()
    with ThreadPoolExecutor(jobs) as pool, log.open("a") as sink:
        for record in pool.map(lambda t: ingest_one(workspace, t[1], t[0], t[2]), tasks):
            sink.write(json.dumps(record) + "\n")
            sink.flush()
            print(f"{record['rc']:>3} {record['seconds']:>7.1f}s {record['code']}:{record['edition']} {record['pdf']}")
    print(f"ingest: {len(tasks)} imports in {time.perf_counter() - start:.0f} s", flush=True)
    # checked once all imports are over: a running import's temporary folder is no leftover
    leftovers = [p for p in (workspace / "norms").rglob("*") if ".tmp" in p.name or p.name.startswith(".")]
    if leftovers:
        problem(f"ingest: temporary files left: {[str(p) for p in leftovers[:3]]}")


def check_error(where: str, rc: int, out: str, err: str, json_mode: bool) -> None:
    """A failing call: one line on stderr, a §4 exit code, the error document with --json."""
    if rc not in EXIT_CODES:
        problem(f"{where}: exit code {rc}")
    if rc == 4:
        problem(f"{where}: internal error: {err.strip()[-300:]}")
    if "Traceback" in err or "Traceback" in out:
        problem(f"{where}: traceback")
    if rc not in (0, 4) and not err.strip():
        problem(f"{where}: exit {rc} without a message on stderr")
    if json_mode and rc in (1, 2, 3):
        try:
            error = json.loads(out)["error"]
            if error["code"] not in ERROR_CODES or not isinstance(error["message"], str):
                problem(f"{where}: bad error document {error}")
        except (ValueError, KeyError, TypeError):
            problem(f"{where}: exit {rc} without an error document on stdout: {out[:200]!r}")


def call(
    workspace: Path, where: str, command: str, *operands: str, options: tuple[str, ...] = (), expect: set[int] = frozenset({0})
) -> Any:
    """Run a read twice (rich and --json): check both, return the JSON answer (or None). The operands come
    after `--`, so a clause path that starts with `-` is read as a path, as a careful script would pass it."""
    base = ["--workspace", str(workspace), command, *options]
    rc, out, err, _ = run([*base, "--", *operands])
    check_error(f"{where} (rich)", rc, out, err, False)
    if rc not in expect:
        problem(f"{where} (rich): exit {rc}, expected {sorted(expect)}: {err.strip()[:200]}")
    rc_json, out, err, _ = run([*base, "--json", "--", *operands])
    check_error(f"{where} (json)", rc_json, out, err, True)
    if rc_json != rc:
        problem(f"{where}: exit {rc} without --json, {rc_json} with it")
    if rc_json != 0:
        return None
    try:
        return json.loads(out)
    except ValueError:
        problem(f"{where} (json): stdout is not one JSON document: {out[:200]!r}")
        return None


def need(where: str, data: Any, /, **types: Any) -> None:
    """Check that the mapping has these keys with these types."""
    if not isinstance(data, dict):
        problem(f"{where}: not an object: {str(data)[:100]}")
        return
    for key, kind in types.items():
        if key not in data:
            problem(f"{where}: missing key {key!r}")
        elif not isinstance(data[key], kind):
            problem(f"{where}: {key!r} is {type(data[key]).__name__}: {str(data[key])[:80]}")


def check_node(where: str, node: dict[str, Any], depth: int, limit: int | None) -> None:
    """One toc/subtree node and its children."""
    need(where, node, nodeId=str, path=str, title=str, pageStart=(int, type(None)), pageEnd=(int, type(None)))
    need(where, node, depth=int, children=list)
    if not NODE_ID.match(str(node.get("nodeId"))):
        problem(f"{where}: nodeId {node.get('nodeId')!r}")
    start, end = node.get("pageStart"), node.get("pageEnd")
    if isinstance(start, int) and isinstance(end, int) and (start < 1 or end < start):
        problem(f"{where} {node.get('path')!r}: pages {start}–{end}")
    # an unnumbered heading's depth is its heading level (SPEC §2): it may sit deeper than its place in the tree
    if not isinstance(node.get("depth"), int) or node["depth"] < depth:
        problem(f"{where} {node.get('path')!r}: depth {node.get('depth')} under depth {depth - 1}")
    if limit is not None and depth >= limit and node.get("children"):
        problem(f"{where} {node.get('path')!r}: children past maxDepth {limit}")
    for child in node.get("children") or []:
        cs, ce = child.get("pageStart"), child.get("pageEnd")
        if isinstance(start, int) and isinstance(cs, int) and cs < start:
            problem(f"{where} {child.get('path')!r}: starts p. {cs} before its parent's p. {start}")
        if isinstance(end, int) and isinstance(ce, int) and ce > end:
            problem(f"{where} {child.get('path')!r}: ends p. {ce} after its parent's p. {end}")
        check_node(where, child, (node.get("depth") or depth) + 1, limit)


def flatten(nodes: list[dict[str, Any]], depth: int = 1) -> list[tuple[int, dict[str, Any]]]:
    """Every node of a tree with its depth, in document order."""
    found = []
    for node in nodes:
        found.append((depth, node))
        found.extend(flatten(node.get("children") or [], depth + 1))
    return found


def read_bundle(workspace: Path, code: str, edition: str) -> None:
    """Phase 2: every read on one bundle."""
    ref = f"{code}:{edition}"
    toc = call(workspace, f"toc {ref}", "toc", ref, options=("--depth", "9"), expect={0, 2})
    toc = toc or call(workspace, f"toc {ref}", "toc", ref, options=("--depth", "6"))
    if toc is None:
        return
    need(f"toc {ref}", toc, code=str, edition=str, tree=list)
    for node in toc.get("tree", []):
        check_node(f"toc {ref}", node, 1, 6)
    nodes = flatten(toc.get("tree", []))
    if not nodes:
        problem(f"toc {ref}: empty tree")
        return
    sample = {nodes[0][1]["path"], nodes[-1][1]["path"], max(nodes, key=lambda n: n[0])[1]["path"]}
    sample |= set([n["path"] for _, n in nodes if re.search(r"[^\w .\-]", n["path"])][:2])
    subtree = call(workspace, f"subtree {ref} {nodes[0][1]['path']!r}", "subtree", ref, nodes[0][1]["path"])
    if subtree:
        need(f"subtree {ref}", subtree, code=str, edition=str, path=str, tree=list)
        for node in subtree.get("tree", []):
            check_node(f"subtree {ref}", node, node.get("depth", 1), None)
    figures: dict[str, str] = {}
    tables: dict[str, str] = {}
    for path in sorted(sample):
        read_section(workspace, ref, path, figures, tables)
    # the whole document's figures and tables, from every clause that lists one
    for _, node in nodes[:: max(1, len(nodes) // 12)]:
        read_section(workspace, ref, node["path"], figures, tables, quiet=True)
    words = re.findall(r"[A-Za-z]{5,}", " ".join(n["title"] for _, n in nodes))
    word = words[len(words) // 2] if words else "the"
    hits = call(workspace, f"search {ref} {word}", "search", ref, word)
    if hits:
        need(f"search {ref}", hits, code=str, edition=str, keyword=str, hits=list)
        for hit in hits.get("hits", []):
            need(f"search {ref} hit", hit, path=str, title=str, snippet=str)
    xr = call(workspace, f"xrefs {ref} {nodes[0][1]['path']!r}", "xrefs", ref, nodes[0][1]["path"])
    if xr:
        need(f"xrefs {ref}", xr, code=str, edition=str, path=str, crossRefs=list)
        for item in xr.get("crossRefs", []):
            need(f"xrefs {ref} entry", item, text=str, type=str, targetKind=str, internal=bool, resolvable=bool)
    for path in sorted(sample)[:3]:
        for form in ("text", "bibtex", "csl-json", "ris"):
            cited = call(workspace, f"cite {ref} {path!r} {form}", "cite", ref, path, options=("--format", form))
            if cited is not None and not isinstance(cited, dict):
                problem(f"cite {ref} {path!r} {form}: answer is not an object")
    for figure_id in list(figures)[:10]:
        data = call(workspace, f"figure {ref} {figure_id}", "figure", ref, figure_id, options=("--output", os.devnull))
        if data:
            need(f"figure {ref} {figure_id}", data, figureId=str, mimeType=str, data=str)
    for table_id in list(tables)[:10]:
        data = call(workspace, f"table {ref} {table_id}", "table", ref, table_id)
        if data:
            need(f"table {ref} {table_id}", data, table=dict)
            need(f"table {ref} {table_id}", data.get("table"), id=str, caption=(str, type(None)), path=str)
            need(f"table {ref} {table_id}", data.get("table"), markdown=str, rows=list)


def read_section(workspace: Path, ref: str, path: str, figures: dict[str, str], tables: dict[str, str], quiet: bool = False) -> None:
    """One section, checked, and the figures and tables it lists collected."""
    where = f"section {ref} {path!r}"
    if quiet:
        rc, out, err, _ = run(["--workspace", str(workspace), "section", ref, path, "--json"])
        check_error(where, rc, out, err, True)
        data = json.loads(out) if rc == 0 else None
    else:
        data = call(workspace, where, "section", ref, path)
    if not data:
        if data is None:
            problem(f"{where}: a path from the toc is not readable")
        return
    section = data.get("section")
    need(where, section, code=str, edition=str, path=str, title=str, markdown=str, content=str)
    need(where, section, children=list, truncated=bool, totalChars=int, figures=list, tables=list)
    need(where, section, crossRefs=list, citation=str)
    if not isinstance(section, dict):
        return
    if section.get("path") != path:
        problem(f"{where}: answered path {section.get('path')!r}")
    if isinstance(section.get("citation"), str) and not CITATION.match(section["citation"]):
        problem(f"{where}: citation {section['citation']!r}")
    if isinstance(section.get("markdown"), str) and section.get("citation") not in section["markdown"]:
        problem(f"{where}: markdown does not end with the citation")
    for figure in section.get("figures") or []:
        figures[figure.get("id")] = path
    for table in section.get("tables") or []:
        tables[table.get("id") if isinstance(table, dict) else str(table)] = path


def guarded(function: Any, *args: Any) -> None:
    """Run one bundle's checks; a failure of the sweep itself is reported, the others go on."""
    try:
        function(*args)
    except Exception as error:  # a bug of the sweep must not hide the other bundles
        problem(f"sweep itself failed on {args[1:]}: {type(error).__name__}: {error}")


def main() -> int:
    """Parse the arguments, run the phases, print the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdfs", type=Path)
    parser.add_argument("workspace", type=Path)
    parser.add_argument("--max-pages", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--reads-only", action="store_true")
    args = parser.parse_args()
    args.workspace.mkdir(parents=True, exist_ok=True)
    pdfs = sorted(args.pdfs.glob("*.pdf"))
    if not args.reads_only:
        ingest_all(args.workspace, pdfs, args.max_pages, args.jobs)
    start = time.perf_counter()
    rc, out, err, _ = run(["--workspace", str(args.workspace), "check", "--json"], timeout=1800)
    check_error("check", rc, out, err, True)
    norms = call(args.workspace, "norms", "norms")
    bundles = [(norm["code"], edition["edition"]) for norm in (norms or {}).get("norms", []) for edition in norm.get("editions", [])]
    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(lambda b: guarded(read_bundle, args.workspace, *b), bundles))
    codes = sorted({code for code, _ in bundles})
    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(lambda c: call(args.workspace, f"diff {c}", "diff", f"{c}:1", f"{c}:2", expect={0, 1}), codes))
    batch = "\n".join(
        json.dumps(line)
        for code, edition in bundles[:20]
        for line in (
            {"op": "toc", "code": f"{code}:{edition}", "maxDepth": 3},
            {"op": "search", "code": f"{code}:{edition}", "keyword": "table"},
            {"op": "section", "code": f"{code}:{edition}", "path": "no such clause"},
        )
    )
    rc, out, err, _ = run(["--workspace", str(args.workspace), "batch"], stdin=batch + "\n")
    check_error("batch", rc, out, err, False)
    answers = out.splitlines()
    if len(answers) != batch.count("\n") + 1:
        problem(f"batch: {len(answers)} answers to {batch.count(chr(10)) + 1} requests")
    for word in ("define", "index"):
        call(args.workspace, f"define {word}", "define", word)
    for word in ("table", "figure", "2.1", "Straße", "x"):
        call(args.workspace, f"corpus {word}", "corpus", word)
    print(f"reads: {len(bundles)} bundles in {time.perf_counter() - start:.0f} s; {len(PROBLEMS)} problems")
    return 1 if PROBLEMS else 0


if __name__ == "__main__":
    sys.exit(main())
