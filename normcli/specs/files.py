"""The spec folders of a workspace (`specs/<domain>/`), their root files and their fingerprints.

A domain is indexed again when its fingerprint changes: a `stat` of every file the last read used,
plus the list of spec files at the top of its folder (where a new root may appear).
"""

from __future__ import annotations

import os

from normcli.record import record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    from pathlib import Path

    from normcli.workspace import StrPath

SPECS_DIR = "specs"
SPEC_SUFFIXES = (".json", ".yaml", ".yml")


@record
class DomainFolder:
    """A folder under `specs/` and the spec files at its top, sorted."""

    domain: str
    location: str  # the folder (a plain string: the freshness check runs at every call's start-up)
    top: tuple[str, ...]

    @property
    def path(self) -> Path:
        """The folder as a Path, for the reader (made when asked)."""
        from pathlib import Path

        return Path(self.location)


def list_domains(root: StrPath) -> list[DomainFolder]:
    """Every `specs/<domain>/` folder, sorted by name; hidden folders are skipped."""
    try:
        entries = sorted(os.scandir(os.path.join(root, SPECS_DIR)), key=lambda entry: entry.name)
    except OSError:
        return []
    found = []
    for entry in entries:
        if entry.name.startswith(".") or not entry.is_dir():
            continue
        try:
            top = tuple(
                sorted(
                    item.name
                    for item in os.scandir(entry.path)
                    if not item.name.startswith(".") and item.name.lower().endswith(SPEC_SUFFIXES) and item.is_file()
                )
            )
        except OSError:
            top = ()
        found.append(DomainFolder(entry.name, entry.path, top))
    return found


def fingerprint(folder: StrPath, files: list[str]) -> str:
    """The modification time and size of each file, in order, as one text (`-` for a missing file).

    Compared whole rather than hashed: loading a hash module costs more start-up than the text does.
    The files are named relative to the open folder, which spares the kernel the path above it."""
    parts = []
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return " ".join("-" for _ in files)
    try:
        for name in files:
            try:
                stat = os.stat(name, dir_fd=handle)
                parts.append(f"{stat.st_mtime_ns}:{stat.st_size}")
            except (OSError, ValueError):
                parts.append("-")
    finally:
        os.close(handle)
    return " ".join(parts)


def choose_root(domain: DomainFolder) -> tuple[str | None, list[str]]:
    """The root file of a domain's spec and the other root-like files it leaves aside.

    One spec per domain (SPEC §7): where several top-level files declare `openapi`/`swagger`, the
    one named `openapi.*`, `swagger.*` or after the domain is read, else the first by name."""
    from normcli.specs.read import looks_like_root

    roots = [name for name in domain.top if looks_like_root(domain.path / name)]
    if not roots:
        return None, []
    preferred = [name for name in roots if name.rsplit(".", 1)[0].lower() in ("openapi", "swagger", domain.domain.lower())]
    chosen = (preferred or roots)[0]
    return chosen, [name for name in roots if name != chosen]
