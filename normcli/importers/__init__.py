"""`ingest`: turn a PDF, Markdown or plain-text norm into a bundle (SPEC §2) and report on its quality.

The importers only build a `Draft` (Markdown body + figure files); `writer` puts it in place
atomically, `parse_bundle` reads it back to count what was written, and the workspace's own
`check` gives the quality report, so the report always describes the bundle as it is on disk.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from normcli.bundle import LANGUAGES, parse_bundle
from normcli.errors import InvalidArgument, NotFound, Notice
from normcli.importers.common import Draft

Progress = Callable[[int, int], None]
SPARSE_PAGE_SHARE = 0.5
LOW_QUALITY = 80  # a score below this is a warning of its own in the report


@dataclass(frozen=True)
class IngestReport:
    """What one import wrote and how good it looks: the `--json` answer of `normcli ingest`."""

    source: str
    format: str
    code: str
    edition: str
    language: str
    title: str
    file: str
    pages: int
    sections: int
    sections_by_depth: dict[str, int]
    figures: int
    tables: int
    formulas: int
    outline_used: bool
    scanned_pages: int
    seconds: float
    captioned_tables: int = 0  # of `tables`, those printed with a caption (`Table 2.1: …`)
    warnings: tuple[str, ...] = ()  # some are a `Notice` of a kind a frontend adds its advice to (`--ocr`)
    quality_score: int | None = None
    problems: tuple[dict, ...] = field(default_factory=tuple)
    alignment: dict | None = None  # a language version: how its clauses line up with the existing language

    @property
    def is_scan(self) -> bool:
        """Whether most pages had no text layer."""
        return self.pages > 0 and self.scanned_pages >= max(1, self.pages * SPARSE_PAGE_SHARE)

    def to_json(self) -> dict:
        """The report in the camelCase JSON of SPEC §3."""
        return {
            "source": self.source,
            "format": self.format,
            "code": self.code,
            "edition": self.edition,
            "language": self.language,
            "title": self.title,
            "file": self.file,
            "pages": self.pages,
            "sections": self.sections,
            "sectionsByDepth": self.sections_by_depth,
            "figures": self.figures,
            "tables": self.tables,
            "captionedTables": self.captioned_tables,
            "formulas": self.formulas,
            "outlineUsed": self.outline_used,
            "scannedPages": self.scanned_pages,
            "scan": self.is_scan,
            "seconds": round(self.seconds, 3),
            "warnings": list(self.warnings),
            "quality": {"score": self.quality_score, "problems": list(self.problems)},
            "alignment": self.alignment,
        }


def detect_format(source: Path) -> str:
    """`pdf`, `markdown`, `rfcxml` or `text`, from the file's first bytes and its name."""
    with source.open("rb") as handle:
        head = handle.read(2048)
    suffix = source.suffix.lower()
    if head.lstrip().startswith(b"%PDF") or suffix == ".pdf":
        return "pdf"
    if suffix in (".md", ".markdown", ".mdown", ".mkd"):
        return "markdown"
    if suffix == ".xml" or b"<rfc" in head:
        return "rfcxml"
    return "text"


def guess_language(text: str) -> str:
    """fr, de, it or en from the commonest short words of a text sample."""
    words = re.findall(r"[a-zäöüéèàòùç]+", text[:60000].lower())
    markers = {
        "fr": {"le", "la", "les", "des", "est", "une", "pour", "dans", "et", "du"},
        "de": {"der", "die", "das", "und", "ist", "nicht", "mit", "für", "den", "zu"},
        "it": {"il", "di", "che", "della", "per", "una", "sono", "gli", "nel", "con"},
        "en": {"the", "and", "of", "is", "to", "in", "for", "that", "be", "with"},
    }
    scores = {language: sum(1 for word in words if word in common) for language, common in markers.items()}
    best = max(scores, key=lambda language: scores[language])
    return best if scores[best] else "en"


def build_draft(
    source: Path, fmt: str, *, ocr: bool = False, use_outline: bool = True, language: str = "en", progress: Progress | None = None
) -> Draft:
    """Run the importer for `fmt` on `source` and return its draft (nothing is written)."""
    if fmt == "pdf":
        from normcli.importers.pdf import import_pdf

        return import_pdf(source, use_outline=use_outline, ocr=ocr, language=language, progress=progress)
    if fmt == "markdown":
        from normcli.importers.markdown import import_markdown

        return import_markdown(source)
    if fmt == "rfcxml":
        from normcli.importers.rfcxml import import_rfcxml

        return import_rfcxml(source)
    from normcli.importers.text import import_text

    return import_text(source)


def ingest(
    source: str | Path,
    code: str,
    edition: str,
    *,
    workspace: str | Path | None = None,
    language: str | None = None,
    title: str | None = None,
    force: bool = False,
    ocr: bool = False,
    use_outline: bool = True,
    progress: Progress | None = None,
) -> IngestReport:
    """Import `source` as `code:edition` into the workspace and return what was written with its quality report."""
    started = time.perf_counter()
    source = Path(source).expanduser()
    if not source.is_file():
        raise NotFound("file", str(source), message=f"no file '{source}'")
    code = re.sub(r"\s+", " ", code or "").strip()
    edition = (edition or "").strip()
    if not code:
        raise InvalidArgument("a norm code is required (for example 'SIA 261')", param="code")
    if ":" in code:  # `SIA 261:2020` names an edition when read: such a code could never be named alone
        raise InvalidArgument(f"a code cannot contain ':' ({code!r}): the edition is given on its own", param="code")
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._\-+]{0,39}", edition):
        raise InvalidArgument(f"edition '{edition}' is not a plain name", "use letters, digits, dots or hyphens", param="edition")
    if language is not None and language.lower() not in LANGUAGES:
        raise InvalidArgument(f"language '{language}' is not one of {', '.join(LANGUAGES)}", param="language")
    root, new_workspace = _workspace_root(workspace)
    fmt = detect_format(source)
    if language is None and fmt != "pdf":
        language = guess_language(source.read_text(encoding="utf-8", errors="replace"))
    draft = build_draft(source, fmt, ocr=ocr, use_outline=use_outline, language=(language or "en").lower(), progress=progress)
    if not any(line.strip() and not line.startswith(("#", "<!--")) for line in draft.body):
        # Nothing to read, whether the pages are drawings (a logo) or images (a scan): an empty bundle would be a
        # norm without a clause in the workspace, so both are refused alike (exit 2) and nothing is written.
        raise _no_text(source, draft, ocr)
    if language is None:
        language = guess_language("\n".join(draft.body))
    language = language.lower()
    chosen_title = title or draft.title or code

    from normcli.importers.writer import bundle_language, other_languages, write_bundle

    alignment = None
    others = other_languages(root, code, edition, language)
    if others:  # a language version: the same clauses get the same paths (and node ids) as the existing language
        from normcli.importers.align import align_language

        aligned = align_language(draft, others[0], code, edition, language, bundle_language(others[0]) or "")
        alignment = aligned.to_json()
        if aligned.warning():
            draft.warnings.append(aligned.warning() or "")
    written = write_bundle(root, draft, code, edition, language, chosen_title, force)
    try:
        return _report(
            draft,
            root,
            written,
            new_workspace=new_workspace,
            ocr=ocr,
            started=started,
            source=str(source),
            format=fmt,
            code=code,
            edition=edition,
            language=language,
            title=chosen_title,
            alignment=alignment,
        )
    except KeyboardInterrupt as stop:  # the bundle is in place and whole; only its report is missing
        written_as = written.relative_to(root).as_posix()
        raise KeyboardInterrupt(f"after {written_as} was written in full (its report was not made: `normcli check` gives it)") from stop


def _report(draft: Draft, root: Path, written: Path, *, new_workspace: bool, ocr: bool, started: float, **given: Any) -> IngestReport:
    """The report of the bundle just `written`: what it holds as read back from disk, the draft's warnings and its
    quality check; `given` holds the report's fields known before it was written (source, format, code, title …)."""
    bundle = parse_bundle(written)
    depths: dict[str, int] = {}
    for node in bundle.nodes:
        depths[str(node.depth)] = depths.get(str(node.depth), 0) + 1
    warnings = list(draft.warnings)
    if new_workspace:
        warnings.insert(0, Notice(f"no workspace was found from here, so {root} is now one (it holds norms/)", "new_workspace"))
    if draft.pages and draft.scanned_pages >= max(1, draft.pages * SPARSE_PAGE_SHARE):
        scan = f"{draft.scanned_pages} of {draft.pages} pages have no text layer: this PDF is a scan, its pages need OCR"
        if ocr and not any("tesseract" in w for w in warnings):
            warnings.insert(0, Notice(f"{scan}; OCR was used for them"))
        else:  # the frontend says how to run OCR (the command line: --ocr)
            warnings.insert(0, Notice(scan, "scan"))
    elif draft.scanned_pages:
        warnings.append(f"{draft.scanned_pages} of {draft.pages} pages have no text layer (scanned or image-only pages)")
    score, problems = _quality(root, written)
    if score is not None and score < LOW_QUALITY:
        kinds: dict[str, int] = {}
        for problem in problems:
            kinds[problem["kind"]] = kinds.get(problem["kind"], 0) + 1
        summary = ", ".join(f"{count} {kind.replace('_', ' ')}" for kind, count in sorted(kinds.items(), key=lambda item: -item[1]))
        warnings.append(Notice(f"low quality: {score}% ({summary})", "low_quality"))
    relative = written.relative_to(root).as_posix()
    return IngestReport(
        **given,
        file=relative,
        pages=draft.pages,
        sections=len(bundle.nodes),
        sections_by_depth=dict(sorted(depths.items(), key=lambda item: int(item[0]))),
        figures=len(bundle.figures),
        tables=len(bundle.tables),
        captioned_tables=sum(1 for table in bundle.tables if table.number),
        formulas=len(bundle.formulas),
        outline_used=draft.outline_used,
        scanned_pages=draft.scanned_pages,
        seconds=time.perf_counter() - started,
        warnings=tuple(warnings),
        quality_score=score,
        problems=problems,
    )


def _no_text(source: Path, draft: Draft, ocr: bool) -> InvalidArgument:
    """The refusal of a document without text, saying why: no text at all, or pages that are images (a scan),
    and with `ocr` what OCR could not do."""
    if not draft.scanned_pages:  # each frontend adds how it reads a scan (the CLI: --ocr)
        return InvalidArgument(f"'{source.name}' has no text to import", "check that it is the right file", param="source")
    pages = f"{draft.scanned_pages} of its {draft.pages} pages are images without a text layer"
    if not ocr:
        return InvalidArgument(f"'{source.name}' has no text to import: {pages}", param="source")
    if shutil.which("tesseract") is None:
        return InvalidArgument(
            f"'{source.name}' has no text to import: {pages}, and tesseract is not installed",
            "install tesseract-ocr and import again",
            param="ocr",
        )
    return InvalidArgument(
        f"'{source.name}' has no text to import: {pages}, and OCR found no text on them", "check the scan's quality", param="ocr"
    )


def workspace_root(workspace: str | Path | None) -> tuple[Path, bool]:
    """The workspace an import writes into, and whether it is new (also for API specs)."""
    return _workspace_root(workspace)


def _workspace_root(workspace: str | Path | None) -> tuple[Path, bool]:
    """The workspace to write into, and whether it is new: never the sample shipped with the package (then the current folder)."""
    from normcli.workspace import locate

    located = locate(workspace)
    return (Path.cwd().resolve(), True) if located.is_sample else (located.root, False)


def _quality(root: Path, written: Path) -> tuple[int | None, tuple[dict, ...]]:
    """The `check` of the edition just written (the same report as `normcli check`), run on that edition alone.

    Every problem `check` reports is about the bundle itself, so a scratch workspace holding
    only this edition (hard links where possible) gives the same answer without re-checking the
    whole workspace.
    """
    import tempfile

    relative = written.relative_to(root).as_posix()
    edition_folder = written.parent
    try:
        from normcli.quality import check_folder

        with tempfile.TemporaryDirectory(prefix="normcli-check-") as scratch:
            copy = Path(scratch) / edition_folder.relative_to(root)
            shutil.copytree(edition_folder, copy, copy_function=_link_or_copy)
            result = check_folder(Path(scratch))
    except Exception as exc:  # the import stands even when the check cannot run
        return None, (
            {
                "file": relative,
                "line": 0,
                "severity": "warning",
                "kind": "check_failed",
                "reason": f"the quality check could not run: {exc}",
            },
        )
    for bundle in result.bundles:
        if bundle.file == relative:
            return bundle.score, bundle.problems
    return None, ()


def _link_or_copy(source: str, destination: str) -> None:
    """`copytree`'s copy function for the scratch check: a hard link where the file system allows one, else a copy."""
    import os

    try:
        os.link(source, destination)
    except OSError:
        shutil.copy2(source, destination)
