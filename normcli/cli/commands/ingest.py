"""`normcli ingest`: import a PDF, Markdown or text file as a bundle and print its quality report."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from normcli.cli.runner import Options, error_boundary

if TYPE_CHECKING:
    from normcli.importers import IngestReport

PROGRESS_FROM_PAGES = 20


def ingest(
    ctx: typer.Context,
    source: Annotated[
        Path, typer.Argument(help="The PDF, Markdown (.md) or plain-text (.txt, RFC, .rst) file to import.", show_default=False)
    ],
    code: Annotated[str | None, typer.Option("--code", "-c", help="The norm's code, e.g. 'SIA 261'.", show_default=False)] = None,
    edition: Annotated[str | None, typer.Option("--edition", "-e", help="The edition, e.g. 2020.", show_default=False)] = None,
    domain: Annotated[
        str | None,
        typer.Option("--domain", help="Import an API spec (OpenAPI/Swagger, JSON or YAML) under specs/DOMAIN instead.", show_default=False),
    ] = None,
    language: Annotated[
        str | None, typer.Option("--language", "-l", help="fr, de, it or en (default: guessed from the text).", show_default=False)
    ] = None,
    title: Annotated[
        str | None, typer.Option("--title", "-t", help="The norm's title (default: from the document).", show_default=False)
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace this edition (in this language) if it exists.")] = False,
    ocr: Annotated[bool, typer.Option("--ocr", help="Read pages without a text layer with tesseract (when installed).")] = False,
    no_outline: Annotated[bool, typer.Option("--no-outline", help="Ignore the PDF's bookmarks and find headings in the text.")] = False,
    json_: Annotated[bool, typer.Option("--json", help="Print the import report as one JSON document.")] = False,
) -> None:
    """Import a norm into the workspace as a bundle, or an API spec with --domain. Example: normcli ingest SIA_261_2020.pdf --code "SIA 261" --edition 2020 --language fr"""
    options: Options = ctx.obj or Options()
    as_json = options.json or json_
    from normcli.cli import output

    if domain is not None:
        _ingest_spec(options, as_json, source, domain, force)
        return
    with error_boundary(options, as_json, "the file you imported", command="ingest"):
        from normcli.errors import InvalidArgument
        from normcli.importers import ingest as run_ingest

        if code is None or edition is None:
            raise InvalidArgument("a norm needs --code and --edition (an API spec needs --domain)", "run `normcli ingest --help`")

        with _progress(source, enabled=not as_json) as progress:
            report = run_ingest(
                source,
                code,
                edition,
                workspace=options.workspace,
                language=language,
                title=title,
                force=force,
                ocr=ocr,
                use_outline=not no_outline,
                progress=progress,
            )
    if as_json:
        output.print_json(_worded(report.to_json(), report.warnings))
    else:
        _print_report(report)


def _worded(data: dict, warnings: tuple[str, ...]) -> dict:
    """The report's JSON with its warnings as the command line words them (the advice names its options)."""
    from normcli.cli.diagnostics import describe_warning

    return {**data, "warnings": [describe_warning(warning, "ingest") for warning in warnings]}


class _progress:
    """A rich progress bar on stderr for long PDF imports; a no-op callback otherwise."""

    def __init__(self, source: Path, enabled: bool) -> None:
        self.enabled = enabled and source.suffix.lower() == ".pdf" and sys.stderr.isatty()
        self.bar = None
        self.task = None

    def __enter__(self):
        if not self.enabled:
            return None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.bar = Progress(
            TextColumn("reading pages"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
            auto_refresh=False,  # redrawn on each page instead: no refresh thread, so the PDF importer may fork a helper
        )
        self.bar.start()
        return self.update

    def update(self, done: int, total: int) -> None:
        """Called by the importer after each page."""
        if self.bar is None or total < PROGRESS_FROM_PAGES:
            return
        if self.task is None:
            self.task = self.bar.add_task("pages", total=total)
        self.bar.update(self.task, completed=done, refresh=True)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def _print_report(report: IngestReport) -> None:
    """The import report for a person: what was written, then the quality report as `check` gives it."""
    out = sys.stdout.write
    depths = ", ".join(f"depth {depth}: {count}" for depth, count in report.sections_by_depth.items())
    out(f"imported {report.source} as {report.code}:{report.edition} ({report.language}) into {report.file}\n")
    pages = f"{report.pages} page{'' if report.pages == 1 else 's'}, " if report.pages else ""
    tree = "outline" if report.outline_used else "headings in the text"
    out(
        f"{pages}{report.sections} sections ({depths or 'none'}), {report.figures} figures, {report.tables} tables ({report.captioned_tables} captioned), {report.formulas} formulas; tree from {tree}; {report.seconds:.1f} s\n"
    )
    from normcli.cli.diagnostics import describe_warning
    from normcli.errors import printable

    for warning in report.warnings:
        out(f"warning: {printable(describe_warning(warning, 'ingest'))}\n")
    score = "n/a" if report.quality_score is None else f"{report.quality_score}%"
    out(f"quality: {score}, {len(report.problems)} problems\n")
    for problem in report.problems[:40]:
        out(f"  {problem['file']}:{problem['line']}: {problem['severity']} ({problem['kind']}): {problem['reason']}\n")
    if len(report.problems) > 40:
        out(f"  … and {len(report.problems) - 40} more (normcli check lists them all)\n")
    if report.is_scan:
        out("this PDF is a scan: run OCR on it (normcli ingest --ocr with tesseract installed, or ocrmypdf) and import it again\n")


def _ingest_spec(options: Options, as_json: bool, source: Path, domain: str, force: bool) -> None:
    """`ingest FILE --domain NAME`: the spec and the files its $refs reach, copied under specs/NAME."""
    from normcli.cli import output

    with error_boundary(options, as_json, "the spec you imported", command="ingest"):
        from normcli.importers import workspace_root
        from normcli.specs.ingest import ingest_spec

        root, new_workspace = workspace_root(options.workspace)
        report = ingest_spec(source, domain, root, force=force, new_workspace=new_workspace)
    if as_json:
        output.print_json(_worded(report.to_json(), report.warnings))
        return
    from normcli.cli.diagnostics import describe_warning
    from normcli.errors import printable

    out = sys.stdout.write
    files = f"{len(report.files)} file{'' if len(report.files) == 1 else 's'}"
    out(
        f"imported {report.source} as the API spec '{report.domain}' ({report.format}) into {report.folder}: {files}, {report.bytes:,} bytes\n"
    )
    out(f"{report.title}: {report.methods} method{'' if report.methods == 1 else 's'}; id {report.spec_id}; {report.seconds:.1f} s\n")
    for warning in report.warnings:
        out(f"warning: {printable(describe_warning(warning, 'ingest'))}\n")
    for problem in report.problems[:40]:
        out(f"  {problem['file']}:{problem['line']}: {problem['severity']} ({problem['kind']}): {problem['reason']}\n")
    if len(report.problems) > 40:
        out(f"  … and {len(report.problems) - 40} more (normcli check lists them all)\n")


def register(app: typer.Typer) -> None:
    """Add `ingest` to `app`."""
    app.command("ingest")(ingest)
