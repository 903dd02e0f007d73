"""`export docset DIR`: the workspace as a Dash/Zeal docset, so the library opens in a docs browser.

The layout is Dash's: `<Name>.docset/Contents/Info.plist`, `Contents/Resources/docSet.dsidx` (SQLite,
table `searchIndex(id, name, type, path)`) and `Contents/Resources/Documents/` with one HTML page per
clause of every edition and language version, an index page per edition and one for the workspace.
The search index names every clause (`Section`), table (`Value`), figure (`Diagram`), defined term
(`Word`), symbol (`Notation`) and edition (`Guide`).

The docset is written beside itself and moved into place with one rename: a reader never sees half
a docset. A folder that holds anything is refused unless `force` is given, and then only the
docset of the same name inside it is replaced; nothing else there is touched.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import sqlite3
from pathlib import Path

from normcli.errors import InvalidArgument, WorkspaceError
from normcli.record import record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from normcli.service import Service, Version

ENTRY_TYPES = {"clause": "Section", "table": "Value", "figure": "Diagram", "term": "Word", "symbol": "Notation", "edition": "Guide"}
_STYLE = (
    "body{font-family:sans-serif;max-width:50em;margin:1em auto;padding:0 1em;line-height:1.45}"
    "table{border-collapse:collapse}td,th{border:1px solid #999;padding:.2em .5em}"
    ".where{color:#555}.cite{font-family:monospace}img{max-width:100%}"
)


@record
class DocsetResult:
    """What `export docset` wrote: the docset folder, its pages and its search entries by type."""

    path: str
    name: str
    pages: int
    entries: tuple[tuple[str, int], ...]

    def to_json(self) -> dict:
        return {"path": self.path, "name": self.name, "pages": self.pages, "entries": dict(self.entries)}


def slug(text: str) -> str:
    """A file or folder name from a code, edition or path: letters, digits, `.`, `_` and `-` only."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._") or "_"


def write_docset(service: Service, folder: Path, force: bool = False, name: str | None = None) -> DocsetResult:
    """Write the docset of the workspace into `folder` (created if missing) and return what it holds."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise InvalidArgument(f"{folder} is a file, not a folder", param="folder")
    title = name or service.settings.name or "normcli"
    docset = folder / f"{slug(title)}.docset"
    if folder.exists() and any(folder.iterdir()) and not force:
        raise InvalidArgument(f"{folder} is not empty", f"only {docset.name} would be replaced there", param="force")
    folder.mkdir(parents=True, exist_ok=True)
    building = folder / f".{docset.name}.tmp-{os.getpid()}"
    shutil.rmtree(building, ignore_errors=True)
    try:
        pages, counts = _build(service, building, title)
        _swap_in(building, docset)
    except OSError as exc:
        raise WorkspaceError(
            f"cannot write the docset in {folder}: {exc.strerror or exc}", "check the folder's permissions and space"
        ) from exc
    finally:
        shutil.rmtree(building, ignore_errors=True)
    return DocsetResult(str(docset), title, pages, tuple(sorted(counts.items())))


def _swap_in(building: Path, docset: Path) -> None:
    """Move the new docset into place; an old one of the same name goes only once the new one is whole."""
    old = docset.with_name(f".{docset.name}.old-{os.getpid()}")
    if docset.exists():
        os.replace(docset, old)
    try:
        os.replace(building, docset)
    except OSError:
        if old.exists():
            os.replace(old, docset)
        raise
    shutil.rmtree(old, ignore_errors=True)


def _build(service: Service, root: Path, title: str) -> tuple[int, dict[str, int]]:
    """Write the whole docset under `root`; return the number of pages and the entries by type."""
    import plistlib

    documents = root / "Contents" / "Resources" / "Documents"
    documents.mkdir(parents=True)
    with open(root / "Contents" / "Info.plist", "wb") as handle:
        plistlib.dump(
            {
                "CFBundleIdentifier": f"normcli.{slug(title).lower()}",
                "CFBundleName": title,
                "DocSetPlatformFamily": "normcli",
                "isDashDocset": True,
                "isJavaScriptEnabled": False,
                "dashIndexFilePath": "index.html",
            },
            handle,
        )
    entries: list[tuple[str, str, str]] = []
    pages = 0
    listing: list[str] = []
    for norm in service.norms().norms:
        for edition in norm.editions:
            for language in edition.languages:
                version = service.version(norm.code, edition.edition, language)
                written, edition_entries, link = _write_edition(service, version, documents, not edition.published)
                pages += written
                entries += edition_entries
                listing.append(
                    f'<li><a href="{html.escape(link)}">{html.escape(_label(version, not edition.published))}</a> {html.escape(edition.title)}</li>'
                )
    _page(documents / "index.html", title, f"<h1>{html.escape(title)}</h1><ul>{''.join(listing)}</ul>")
    pages += 1
    with sqlite3.connect(root / "Contents" / "Resources" / "docSet.dsidx") as db:
        db.execute("CREATE TABLE searchIndex(id INTEGER PRIMARY KEY, name TEXT, type TEXT, path TEXT)")
        db.execute("CREATE UNIQUE INDEX anchor ON searchIndex (name, type, path)")
        db.executemany("INSERT OR IGNORE INTO searchIndex(name, type, path) VALUES (?, ?, ?)", entries)
        counts = dict(db.execute("SELECT type, count(*) FROM searchIndex GROUP BY type").fetchall())
    return pages, counts


def _label(version: Version, draft: bool) -> str:
    """`SIA 261:2020 (de)` when the edition has several languages, `SIA 261:2026 (draft)` for a draft."""
    label = f"{version.code}:{version.edition}" + (" (draft)" if draft else "")
    return label + (f" ({version.language})" if len(version.languages) > 1 else "")


def _write_edition(service: Service, version: Version, documents: Path, draft: bool) -> tuple[int, list[tuple[str, str, str]], str]:
    """One page per clause of one language version, its index page, its figures; (pages, entries, index link)."""
    from normcli.lookups import cite_row

    index = service.index()
    bundle = next(row for row in index.bundles() if row["id"] == version.bundle_id)
    base = f"{slug(version.code)}/{slug(version.edition)}/{slug(version.language)}"
    folder = documents / base
    folder.mkdir(parents=True)
    rows = index.outline(version.bundle_id)
    texts: dict[int, str] = {}
    for start in range(0, len(rows), 500):
        texts.update(index.texts([row["id"] for row in rows[start : start + 500]]))
    tables: dict[str, list] = {}
    for table in index.tables(version.bundle_id):
        tables.setdefault(table["node_path"], []).append(table)
    figures: dict[str, list] = {}
    for figure in index.figures(version.bundle_id):
        figures.setdefault(figure["node_path"], []).append(figure)
    _copy_figures(service, version, folder, index.figures(version.bundle_id))
    label = _label(version, draft)
    files: dict[str, str] = {}
    for row in rows:
        name = f"{slug(row['path'])}.html"
        while name in files.values():
            name = f"_{name}"
        files[row["path"]] = name
    entries: list[tuple[str, str, str]] = [(f"{label} {version.title}", ENTRY_TYPES["edition"], f"{base}/index.html")]
    toc: list[str] = []
    for number, row in enumerate(rows):
        path, page = row["path"], f"{base}/{files[row['path']]}"
        heading = path if row["title"] == path else f"{path} {row['title']}"
        entries.append((f"{label} {heading}", ENTRY_TYPES["clause"], page))
        parts = []
        for table in tables.get(path, []):
            parts.append(f'<p id="{html.escape(table["table_id"])}" class="where">{html.escape(table["caption"] or table["table_id"])}</p>')
            entries.append((f"{label} {table['caption'] or table['table_id']}", ENTRY_TYPES["table"], f"{page}#{table['table_id']}"))
        for figure in figures.get(path, []):
            parts.append(f'<p id="{html.escape(figure["fig_id"])}" class="where">{html.escape(figure["caption"] or figure["fig_id"])}</p>')
            entries.append((f"{label} {figure['caption'] or figure['fig_id']}", ENTRY_TYPES["figure"], f"{page}#{figure['fig_id']}"))
        neighbours = [
            f'<a href="{files[rows[number - 1]["path"]]}">previous</a>' if number else "",
            '<a href="index.html">contents</a>',
            f'<a href="{files[rows[number + 1]["path"]]}">next</a>' if number + 1 < len(rows) else "",
        ]
        body = (
            f'<p class="where">{html.escape(label)} · {" · ".join(part for part in neighbours if part)}</p>'
            f"<h1>{html.escape(heading)}</h1>{_html(texts.get(row['id'], ''))}"
            + (f"<h2>Tables and figures</h2>{''.join(parts)}" if parts else "")
            + f'<p class="cite">{html.escape(cite_row(bundle, path, row["page_start"]))}</p>'
        )
        _page(folder / files[path], f"{label} {heading}", body)
        indent = "&nbsp;" * 2 * (row["depth"] - 1)
        toc.append(f'<li>{indent}<a href="{files[path]}">{html.escape(heading)}</a></li>')
    for term in index.defined_terms(version.bundle_id):
        if term["path"] in files:
            entries.append((f"{term['term']} ({label}, {term['path']})", ENTRY_TYPES[term["kind"]], f"{base}/{files[term['path']]}"))
    _page(
        folder / "index.html",
        label,
        f'<h1>{html.escape(label)} {html.escape(version.title)}</h1><ul style="list-style:none">{"".join(toc)}</ul>',
    )
    return len(rows) + 1, entries, f"{base}/index.html"


def _copy_figures(service: Service, version: Version, folder: Path, figures: list) -> None:
    """The figure files a clause shows, copied beside its pages; only files inside the bundle folder."""
    source = (service.root / version.file).parent.resolve()
    for figure in figures:
        if not figure["file"]:
            continue
        file = (source / figure["file"]).resolve()
        if not file.is_relative_to(source) or not file.is_file():
            continue
        target = folder / file.relative_to(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(file, target)


def _html(markdown: str) -> str:
    """A clause's Markdown as HTML: formulas as readable Unicode, raw HTML in the text escaped."""
    from markdown_it import MarkdownIt

    from normcli.render import formulas_to_unicode

    return MarkdownIt("commonmark", {"html": False}).enable("table").render(formulas_to_unicode(markdown))


def _page(file: Path, title: str, body: str) -> None:
    file.write_text(
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{_STYLE}</style></head><body>{body}</body></html>\n",
        encoding="utf-8",
    )
