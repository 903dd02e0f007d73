"""Write a draft as a bundle (SPEC §2) without ever leaving half a bundle behind.

Everything is written into a hidden temporary folder inside `norms/` (the workspace lister skips
names starting with a dot) and moved into place with one rename; an interrupted import leaves at
most that hidden folder, which the next import removes.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from pathlib import Path

from normcli.bundle import language_of
from normcli.errors import InvalidArgument, WorkspaceError
from normcli.fold import code_key
from normcli.importers.common import Draft, slug

TEMP_PREFIX = ".ingest-"


def front_matter(code: str, edition: str, title: str, language: str) -> list[str]:
    """The front matter lines of a bundle written by an import."""
    return [
        "---",
        f"code: {_yaml_scalar(code)}",
        f'edition: "{edition}"',
        f"title: {_yaml_scalar(title or code)}",
        f"language: {language}",
        "published: true",
        "demo: false",
        "---",
    ]


def _yaml_scalar(value: str) -> str:
    """`value` as a YAML scalar of the front matter: on one line, quoted when a YAML sign in it would change its meaning."""
    value = re.sub(r"\s+", " ", value).strip()
    if re.search(r"[:#\[\]{}\"',&*!|>%@`]", value) or value != value.strip("- "):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return value


def bundle_language(file: Path) -> str | None:
    """The language a bundle file is written in: from its name, else from its front matter."""
    named = language_of(file)
    if named:
        return named
    try:
        with file.open(encoding="utf-8", errors="replace") as handle:
            for index, line in enumerate(handle):
                if index > 40:
                    break
                match = re.match(r"^language:\s*([a-z]{2})", line.strip())
                if match:
                    return match.group(1)
    except OSError:
        return None
    return None


def write_bundle(root: Path, draft: Draft, code: str, edition: str, language: str, title: str, force: bool) -> Path:
    """Write the draft into `norms/<slug>/<edition>/` and return the bundle file written."""
    norms = root / "norms"
    try:
        norms.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WorkspaceError(f"cannot create {norms}: {exc.strerror}", "check the workspace folder's permissions") from exc
    _remove_leftovers(norms)
    target = _norm_folder(norms, code, edition) / edition
    existing = sorted(target.glob("norm*.md")) if target.is_dir() else []
    same = [file for file in existing if bundle_language(file) in (language, None)]
    others = [file for file in existing if file not in same]
    if same and not force:
        raise InvalidArgument(f"{code}:{edition} ({language}) already exists in {target}", param="force")
    text = "\n".join([*front_matter(code, edition, title, language), *draft.body]).rstrip("\n") + "\n"
    try:
        if not others:
            return _replace_folder(norms, target, draft, text)
        return _add_language(target, draft, text, language, same, others)
    except OSError as exc:
        raise WorkspaceError(
            f"cannot write the bundle into {target}: {exc.strerror or exc}", "check free disk space and permissions"
        ) from exc


def other_languages(root: Path, code: str, edition: str, language: str) -> list[Path]:
    """The bundle files of this edition written in another language (a new language version is aligned to them)."""
    norms = root / "norms"
    if not norms.is_dir():
        return []
    target = _norm_folder(norms, code, edition) / edition
    files = sorted(target.glob("norm*.md")) if target.is_dir() else []
    return [file for file in files if bundle_language(file) not in (language, None)]


def _norm_folder(norms: Path, code: str, edition: str) -> Path:
    """The folder of `code`: one already holding it (`rfc-3986` for `rfc3986`, as codes are matched
    forgivingly), so that a second import is seen as one: the one with this edition, else the one
    named as normcli names it, else the first; with none, `norms/<slug>`."""
    wanted = code_key(code)
    held = sorted(folder for folder in norms.iterdir() if folder.is_dir() and code_key(folder.name) == wanted)
    ranked = sorted(held, key=lambda folder: (not (folder / edition).is_dir(), folder.name != slug(code)))
    return ranked[0] if ranked else norms / slug(code)


def _remove_leftovers(norms: Path) -> None:
    """Remove the temporary folders an interrupted import left in `norms` (they never hold a finished bundle)."""
    for leftover in norms.glob(f"{TEMP_PREFIX}*"):
        shutil.rmtree(leftover, ignore_errors=True)


def _write_files(folder: Path, draft: Draft, prefix: str = "") -> None:
    """Write the draft's figure files under `folder` (copied when given as a path), their names led by `prefix`."""
    for relative, content in draft.files.items():
        destination = folder / (relative if not prefix else relative.replace("figures/", f"figures/{prefix}", 1))
        destination.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Path):
            shutil.copyfile(content, destination)
        else:
            destination.write_bytes(content)


def _replace_folder(norms: Path, target: Path, draft: Draft, text: str) -> Path:
    """A new edition folder, or a whole-folder replacement with --force: build aside, then swap by rename."""
    temp = Path(tempfile.mkdtemp(prefix=TEMP_PREFIX, dir=norms))
    try:
        _write_files(temp, draft)
        (temp / "norm.md").write_text(text, encoding="utf-8")
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.exists():
            old = Path(tempfile.mkdtemp(prefix=TEMP_PREFIX + "old-", dir=norms))
            old.rmdir()
            target.rename(old)
            try:
                temp.rename(target)
            except OSError:
                old.rename(target)
                raise
            shutil.rmtree(old, ignore_errors=True)
        else:
            temp.rename(target)
    finally:
        if temp.exists():
            shutil.rmtree(temp, ignore_errors=True)
    return target / "norm.md"


def _add_language(target: Path, draft: Draft, text: str, language: str, same: list[Path], others: list[Path]) -> Path:
    """Another language version beside existing ones: `norm.<lang>.md`, figures under `figures/<lang>-…`."""
    for other in others:
        if other.name == "norm.md":  # the edition now has several languages: name the old file by its language
            other_language = bundle_language(other) or "en"
            other.rename(target / f"norm.{other_language}.md")
    prefix = f"{language}-"
    body = text.replace("](figures/", f"](figures/{prefix}")
    _write_files(target, draft, prefix)
    destination = target / f"norm.{language}.md"
    handle, temp_name = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=".tmp", dir=target.parent.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(body)
        for old in same:
            if old != destination:
                old.unlink()
        os.replace(temp_name, destination)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp_name)
    return destination
