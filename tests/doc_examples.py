"""The `$ normcli …` examples of README.md and docs/*.md, run on a copy of the sample workspace.

An example is a line `$ normcli …` inside a fenced block; the lines after it, up to the next `$ `
line or the end of the block, are what it prints (stdout, then stderr). A line starting with `…`
ends what is compared: the lines before it must match the real output line for line. Paths,
times and durations are masked on both sides. `python -m tests.doc_examples --write` rewrites the
compared lines from the real output (for a change that alters what a command prints on purpose).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
DOCUMENTS = [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md"))]
WIDTH = "100"  # the terminal width the examples were printed at
_MASKS = [
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"), "<time>"),
    (re.compile(r"\b\d+(?:\.\d+)? (?:s|ms)\b"), "<duration>"),
    (re.compile(r"(?<![\w.])/(?:[\w.+-]+/)*[\w.+-]+"), "<path>"),
]
# A stand-in for jq where it is not installed, on the `jq` wheel: `-r`, `-c` and one filter, over
# one JSON document or JSON Lines.
_JQ_SHIM = """#!{python}
import json, sys
import jq
flags = "".join(a[1:] for a in sys.argv[1:] if a.startswith("-"))
program = jq.compile(next(a for a in sys.argv[1:] if not a.startswith("-")))
text = sys.stdin.read()
try:
    documents = [json.loads(text)]
except ValueError:
    documents = [json.loads(line) for line in text.splitlines() if line.strip()]
for document in documents:
    for value in program.input_value(document).all():
        if "r" in flags and isinstance(value, str):
            print(value)
        else:
            compact = "c" in flags
            print(json.dumps(value, ensure_ascii=False, indent=None if compact else 2, separators=(",", ":") if compact else None))
"""


@dataclass
class Example:
    """One documented command and the lines it is shown to print."""

    file: Path
    line: int  # 1-based line of the `$ normcli` line
    command: str
    expected: list[str]  # the compared lines, before any `…`
    elided: bool  # whether a `…` line follows them


def examples(document: Path) -> list[Example]:
    """Every `$ normcli …` example of one Markdown file."""
    found: list[Example] = []
    in_block = False
    current: Example | None = None
    for number, raw in enumerate(document.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.rstrip()
        if line.lstrip().startswith("```"):
            in_block = not in_block
            current = None
            continue
        if not in_block:
            continue
        if line.startswith("$ "):
            current = None
            if line.startswith("$ normcli ") or re.match(r"\$ \S.*\|\s*normcli ", line):
                current = Example(document, number, line[2:], [], False)
                found.append(current)
            continue
        if current is None or current.elided:
            continue
        if line.lstrip().startswith("…"):
            current.elided = True
        else:
            current.expected.append(line)
    for example in found:
        while example.expected and not example.expected[-1].strip():
            example.expected.pop()  # the blank line between two examples
    return found


def all_examples() -> list[Example]:
    """The examples of the README and of every document under docs/."""
    return [example for document in DOCUMENTS for example in examples(document)]


def words(lines: list[str]) -> list[str]:
    """The words of some output lines, with what differs between machines and runs (paths, times,
    durations) masked. Words, not lines: a longer path wraps a line elsewhere and changes nothing else."""
    text = "\n".join(lines)
    for pattern, placeholder in _MASKS:
        text = pattern.sub(placeholder, text)
    return text.split()


def run(example: Example, workspace: Path, bin_dir: Path) -> list[str]:
    """What the example's command prints (stdout then stderr) in `workspace`, as lines."""
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "NO_COLOR": "1",
        "COLUMNS": WIDTH,
        "LINES": "50",
        "TERM": "dumb",
    }
    env.pop("NORMCLI_WORKSPACE", None)
    done = subprocess.run(
        ["bash", "-o", "pipefail", "-c", example.command],
        cwd=workspace,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return (done.stdout + done.stderr).splitlines()


def prepare(scratch: Path) -> tuple[Path, Path]:
    """A copy of the sample workspace and a folder of commands (`normcli`, and `jq` where missing)."""
    workspace = scratch / "sample_workspace"
    shutil.copytree(PROJECT / "sample_workspace", workspace, ignore=shutil.ignore_patterns(".normcli"))
    bin_dir = scratch / "bin"
    bin_dir.mkdir()
    normcli = Path(sys.executable).with_name("normcli")
    (bin_dir / "normcli").symlink_to(normcli)
    if shutil.which("jq") is None:
        shim = bin_dir / "jq"
        shim.write_text(_JQ_SHIM.replace("{python}", sys.executable), encoding="utf-8")
        shim.chmod(0o755)
    return workspace, bin_dir


def rewrite(example: Example, actual: list[str]) -> None:
    """Replace the example's compared lines in its file with the real output."""
    lines = example.file.read_text(encoding="utf-8").split("\n")
    start = example.line  # the index of the first output line (0-based)
    count = len(example.expected)
    new = actual[:count] if example.elided else actual
    lines[start : start + count] = [line.rstrip() for line in new]
    example.file.write_text("\n".join(lines), encoding="utf-8")


def main() -> None:
    """`--write`: refresh every example's shown output from a real run; otherwise list the differences."""
    write = "--write" in sys.argv
    with tempfile.TemporaryDirectory() as scratch:
        workspace, bin_dir = prepare(Path(scratch))
        for document in DOCUMENTS:
            for example in reversed(examples(document)):  # bottom up: line numbers above stay valid
                actual = run(example, workspace, bin_dir)
                shown = words(example.expected)
                if words(actual)[: len(shown)] != shown:
                    print(f"{example.file.relative_to(PROJECT)}:{example.line}: {example.command}")
                    if write:
                        rewrite(example, actual)


if __name__ == "__main__":
    main()
