"""`normcli ingest FILE --domain NAME` for an API spec: the root file and every file its relative
`$ref`s reach are copied into `specs/<domain>/`, keeping their layout.

The files are first copied into a hidden folder beside the target and then renamed into place in
one step, so that a reader never sees half a spec and a crash leaves nothing behind. An existing
domain is replaced only with `force` (the old folder is moved aside first and removed last).
"""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

from normcli.errors import InvalidArgument, NotFound, Notice, WorkspaceError
from normcli.record import record
from normcli.specs.files import SPECS_DIR

_DOMAIN = r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}"


@record
class SpecIngestReport:
    """What `ingest --domain` wrote, and what reading the spec found."""

    source: str
    domain: str
    spec_id: str
    folder: str
    files: tuple[str, ...]
    bytes: int
    format: str
    title: str
    methods: int
    seconds: float
    problems: tuple[dict, ...]
    warnings: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {
            "source": self.source,
            "domain": self.domain,
            "specId": self.spec_id,
            "folder": self.folder,
            "files": list(self.files),
            "bytes": self.bytes,
            "format": self.format,
            "title": self.title,
            "methods": self.methods,
            "seconds": round(self.seconds, 3),
            "warnings": list(self.warnings),
            "problems": list(self.problems),
        }


def ingest_spec(source: str | Path, domain: str, root: Path, force: bool = False, new_workspace: bool = False) -> SpecIngestReport:
    """Copy the spec whose root file is `source` into `root/specs/<domain>/` and report it."""
    from normcli.specs import ids
    from normcli.specs.read import UnreadableSpec, read_spec

    started = time.perf_counter()
    source = Path(source).expanduser()
    if not source.is_file():
        raise NotFound("file", str(source), message=f"no file '{source}'")
    if not isinstance(domain, str) or not re.fullmatch(_DOMAIN, domain):
        raise InvalidArgument(f"domain {domain!r} is not a plain name", "letters, digits, dots, hyphens or underscores", param="domain")
    folder = source.resolve().parent
    try:
        spec = read_spec(folder, domain, source.name, f"{SPECS_DIR}/{domain}")
    except UnreadableSpec as unreadable:
        problem = unreadable.problems[0]
        hint = "give the root file of an OpenAPI 3 or Swagger 2.0 spec" if problem.kind == "not_a_spec" else "nothing was copied"
        raise InvalidArgument(
            f"{source}:{problem.line}: {problem.reason}" if problem.line else f"{source}: {problem.reason}", hint
        ) from None
    # Every file the spec reaches, but never one that a link leads to from outside the folder.
    files = [name for name in spec.files if (folder / name).is_file() and os.path.realpath(folder / name).startswith(f"{folder}{os.sep}")]
    target = root / SPECS_DIR / domain
    if target.exists() and not force:
        raise InvalidArgument(f"{SPECS_DIR}/{domain} already exists in {root}", param="force")
    _copy_into_place(folder, files, target)
    warnings = (
        [Notice(f"no workspace was found from here, so {root} is now one (it holds specs/)", "new_workspace")] if new_workspace else []
    )
    return SpecIngestReport(
        source=str(source),
        domain=domain,
        spec_id=ids.spec_id(domain),
        folder=f"{SPECS_DIR}/{domain}",
        files=tuple(files),
        bytes=sum((folder / name).stat().st_size for name in files),
        format=spec.format,
        title=spec.title,
        methods=len(spec.methods),
        seconds=time.perf_counter() - started,
        problems=tuple(problem.to_json() for problem in spec.problems),
        warnings=tuple(warnings),
    )


def _copy_into_place(folder: Path, files: list[str], target: Path) -> None:
    """Copy `files` (relative to `folder`) into a hidden sibling of `target`, then swap it in."""
    parent = target.parent
    staging = parent / f".{target.name}.tmp-{os.getpid()}"
    aside = parent / f".{target.name}.old-{os.getpid()}"
    try:
        parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(staging, ignore_errors=True)
        for name in files:
            destination = staging / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(folder / name, destination)
        if target.exists():
            os.replace(target, aside)
        os.replace(staging, target)
    except OSError as exc:
        if aside.exists() and not target.exists():
            os.replace(aside, target)  # the old spec back in its place
        raise WorkspaceError(f"cannot write {target}: {exc.strerror}", "check free disk space and permissions") from exc
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(aside, ignore_errors=True)
