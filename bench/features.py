"""Benchmarks of issue 17: one Markdown table of medians, each against a baseline measured in the same run.

    python bench/features.py                    # diff of two 300-clause editions; incoming refs on `small`
    python bench/features.py --size large       # incoming refs at 200 norms × 1,000 clauses = 200,000 clauses

Rows:
- `diff` of two 300-clause editions of one norm, whole process (`normcli diff A B --json`), against
  `normcli toc CODE --json` on the same workspace. Edition B is edition A with clauses renumbered (a
  clause inserted mid-chapter), removed, added and values changed. Goal ≤ 1 s.
- `xrefs --incoming`, in process, over clauses that are referred to, against `xrefs` (outgoing) of
  the same clauses. Goal ≤ 10 ms at 200,000 clauses (`--size large`).

Progress goes to stderr; stdout carries only the table.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gen_corpus
import run as bench

DIFF_CLAUSES = 300


def make_editions(root: Path, seed: int) -> tuple[str, str, str, dict[str, int]]:
    """A workspace holding one 300-clause norm in two editions; returns the two names, the code and what was changed."""
    gen_corpus.generate(root, 1, DIFF_CLAUSES, seed, tree_nodes=0, big_chars=0, label="diff")
    [old_file] = root.glob("norms/*/*/norm.md")
    text = old_file.read_text(encoding="utf-8")
    code = re.search(r"^code: (.+)$", text, re.M).group(1)  # type: ignore[union-attr]
    old_edition = old_file.parent.name
    new_edition = str(int(old_edition) + 1)
    rng = random.Random(seed)
    changed = {"renumbered": 0, "removed": 0, "added": 0, "values": 0}
    # Renumber: a new clause before x.k shifts x.k, x.k+1 … (and their subclauses) by one.
    headings = re.findall(r"^(#+) (\d+)\.(\d+) ", text, re.M)
    chapter, _ = rng.choice([(c, n) for _, c, n in headings if int(n) >= 2])
    at = min(int(n) for _, c, n in headings if c == chapter and int(n) >= 2)

    def shift(match: re.Match[str]) -> str:
        number = int(match.group(3))
        if match.group(2) == chapter and number >= at:
            changed["renumbered"] += 1
            return f"{match.group(1)} {chapter}.{number + 1}{match.group(4)}"
        return match.group(0)

    text = re.sub(r"^(#+) (\d+)\.(\d+)((?:\.\d+)* )", shift, text, flags=re.M)
    text = text.replace(
        f"\n## {chapter}.{at + 1} ",
        f"\n## {chapter}.{at} Clause nouvelle de la présente édition\n\nCette clause est nouvelle; elle vaut 4,2 kN/m².\n\n## {chapter}.{at + 1} ",
        1,
    )
    changed["added"] += 1
    # Remove two leaf clauses elsewhere (a heading and its text, up to the next heading).
    blocks = re.split(r"(?m)^(?=#+ )", text)
    removable = [i for i, block in enumerate(blocks) if re.match(rf"#+ (?!{chapter}\.)\d+\.\d+\.\d+ ", block)]
    for i in sorted(rng.sample(removable, 2), reverse=True):
        del blocks[i]
        changed["removed"] += 1
    text = "".join(blocks)

    # Change one value in about one clause in ten.
    def value(match: re.Match[str]) -> str:
        if rng.random() < 0.1:
            changed["values"] += 1
            return f"{int(match.group(1)) + 1},{match.group(2)}"
        return match.group(0)

    text = re.sub(r"(?<![\d,])(\d+),(\d+)(?![\d,])", value, text)
    text = text.replace(f'edition: "{old_edition}"', f'edition: "{new_edition}"', 1)
    new_folder = old_file.parent.parent / new_edition
    new_folder.mkdir()
    (new_folder / "norm.md").write_text(text, encoding="utf-8")
    if (old_file.parent / "figures").is_dir():
        shutil.copytree(old_file.parent / "figures", new_folder / "figures")
    return code, old_edition, new_edition, changed


def diff_rows(runs: int, seed: int) -> list[bench.Row]:
    """`normcli diff` of two 300-clause editions, whole process, against `toc` of the same norm."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "ws"
        code, old, new, changed = make_editions(root, seed)
        bench.log(f"diff: {code} {old} → {new}, made with {changed}")
        bench.run_process(bench.normcli_command(root, "index"))
        toc, _ = bench.repeat_process(bench.normcli_command(root, "toc", code, "--json"), runs)
        stat, done = bench.repeat_process(bench.normcli_command(root, "diff", f"{code}:{old}", f"{code}:{new}", "--json"), runs)
        import json

        counts = json.loads(done.stdout)["counts"]
        found = ", ".join(f"{count} {kind}" for kind, count in counts.items())
        return [
            bench.time_row(
                f"diff, {DIFF_CLAUSES}-clause editions (whole process)",
                stat,
                ("toc --json", toc.median),
                "≤ 1 s",
                stat.median <= 1.0,
                extra=found,
            )
        ]


def incoming_rows(workspace: Path, manifest: dict, runs: int, large: bool) -> list[bench.Row]:
    """`xrefs --incoming` in process over referred-to clauses, against outgoing `xrefs` of the same clauses."""
    sys.path.insert(0, str(bench.SOURCE))
    from normcli.service import Service

    service = Service.open(workspace)
    service.recheck_after = 3600.0  # as batch and MCP do: measure the lookup, not the freshness stat of every bundle
    service.info()
    # The first clauses of each norm: the generator makes its references to them (its first 200 paths).
    targets = [(norm["code"], path) for norm in manifest["bundles"] for path in norm["paths"][:3]][:60]
    calls = [0]

    def one(direction: str) -> None:
        code, path = targets[calls[0] % len(targets)]
        calls[0] += 1
        service.xrefs(code, path, direction=direction)

    outgoing = bench.repeat_call(lambda: one("outgoing"), runs * 20)
    incoming = bench.repeat_call(lambda: one("incoming"), runs * 20)
    found = sum(len(service.xrefs(code, path, direction="incoming").cross_refs) for code, path in targets)
    # The same lookup without its index: what `incoming` would cost as a scan of every reference.
    index = service.index()
    keys = [(code.replace(" ", "").lower(), path) for code, path in targets]
    scans = [0]

    def scan() -> None:
        norm, path = keys[scans[0] % len(keys)]
        scans[0] += 1
        index.connection.execute("SELECT count(*) FROM xrefs NOT INDEXED WHERE target_norm = ? AND target_ref = ?", (norm, path)).fetchone()

    scanned = bench.repeat_call(scan, max(3, runs), warm=1)
    size = f"{manifest['totalSections']:,} clauses"
    return [
        bench.time_row(
            f"xrefs --incoming, in process ({size})",
            incoming,
            ("xrefs (outgoing)", outgoing.median),
            "≤ 10 ms" + ("" if large else " (large)"),
            incoming.median <= 0.010,
            extra=f"{found / len(targets):.1f} refs per clause",
        ),
        bench.time_row(f"the same lookup as a scan, no index ({size})", scanned, ("xrefs --incoming", incoming.median), "—"),
    ]


def main(argv: list[str] | None = None) -> int:
    """Run the measures and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", choices=sorted(gen_corpus.SIZES), default="small")
    parser.add_argument("--norms", type=int)
    parser.add_argument("--sections", type=int)
    parser.add_argument("--seed", type=int, default=gen_corpus.DEFAULT_SEED)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workspace", help="a workspace made by bench/gen_corpus.py")
    parser.add_argument("--cache", help="where generated workspaces are kept")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    rows = diff_rows(args.runs, args.seed)
    workspace, manifest = bench.ensure_workspace(args)
    bench.log(f"indexing {workspace} if needed")
    bench.run_process(bench.normcli_command(workspace, "index"))
    rows += incoming_rows(workspace, manifest, args.runs, args.size in ("large", "xlarge") or manifest["totalSections"] >= 200_000)
    print("| measure | median | min – max | baseline | ratio | goal | met |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row.cells()) + " |")
    print(f"\n{bench.machine(load)}; {time.perf_counter() - started:.0f} s in all.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
