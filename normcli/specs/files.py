"""The spec folders of a workspace (`specs/<domain>/`), their root files and their fingerprints.

A domain is indexed again when one of the files its last read used changes. Editors and tools save
in two ways: into a new file renamed over the old (vim, sed -i, most IDEs: the folder changes too) or
into the file itself (VS Code, `>>`, emacs after its first save): only the file's own inode then shows
it. So a folder's listing can stand for its entries but never for their content, and the check costs
a `stat` per file; nothing cheaper sees an in-place write. A file's stamp is its modification and
change times, size and inode number: any write, truncation, replacement, or `touch -d` moves one of
them (a write sets the change time, which no tool can set back).

A stamp is taken before its file is read, so that a write during the build shows next time. A write
in the same clock tick as the build's read could leave every number as it was (file times come from
a coarse clock on Linux): a file whose times are that close to its reading is stamped `?`, never
equal to a stamp, so the next check reads its domain again (git calls these entries "racily clean").
"""

from __future__ import annotations

import os
import time

from normcli.record import record
from normcli.workspace import SPECS_DIR

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    from pathlib import Path  # the check on every call's path works on strings; a Path is made to read a spec

SPEC_SUFFIXES = (".json", ".yaml", ".yml")
MISSING = "-"
RACY = "?"
# Longer than any file system's clock tick (Linux's coarse clock: 1–10 ms), with room for a slow stat.
RACY_NS = 100_000_000


@record
class DomainFolder:
    """A folder under `specs/`, the spec files at its top (sorted), and the folder's stamp taken
    before they were listed (a listing is reused while the folder's stamp stays the same)."""

    domain: str
    path: Path
    top: tuple[str, ...]
    stamp: str = MISSING


def stamp_of(path: str | Path, dir_fd: int | None = None) -> str:
    """The stamp of one file or folder as a check compares it (`-` when it is not there)."""
    try:
        found = os.stat(path, dir_fd=dir_fd)
    except (OSError, ValueError):
        return MISSING
    return f"{found.st_mtime_ns}:{found.st_ctime_ns}:{found.st_size}:{found.st_ino}"


def stamp_before_read(path: str | Path) -> tuple[str, int]:
    """The stamp and size of a file (or folder) about to be read (listed). The stamp is `?` when a
    write in the same clock tick could go unseen: such a write sets both times to that tick, so it
    needs them equal to each other and to about now."""
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return MISSING, 0
    if found.st_mtime_ns == found.st_ctime_ns and abs(time.time_ns() - found.st_ctime_ns) < RACY_NS:
        return RACY, found.st_size
    return f"{found.st_mtime_ns}:{found.st_ctime_ns}:{found.st_size}:{found.st_ino}", found.st_size


def fingerprint(folder: Path | str, files: list[str]) -> str:
    """The stamps of `files` (relative to `folder`), in order, as one text; `-` for a missing file.

    Compared whole rather than hashed: loading a hash module costs more start-up than the text does.
    The files are named relative to the open folder, which spares the kernel the path above it; a
    folder of one or two files (a single-file spec) is not opened: two system calls fewer per domain."""
    if len(files) <= 2:
        return " ".join([stamp_of(os.path.join(folder, name)) for name in files])
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return " ".join(MISSING for _ in files)
    stat = os.stat
    try:
        try:  # the common case written out: this loop is most of what a discovery call costs
            return " ".join(
                [
                    f"{found.st_mtime_ns}:{found.st_ctime_ns}:{found.st_size}:{found.st_ino}"
                    for found in [stat(name, dir_fd=handle) for name in files]
                ]
            )
        except (OSError, ValueError):  # a file is missing: stamp them one by one
            return " ".join([stamp_of(name, handle) for name in files])
    finally:
        os.close(handle)


def domain_names(specs: str) -> list[str]:
    """The names of the folders under `specs/` (hidden ones skipped), sorted; [] when there is none."""
    try:
        with os.scandir(specs) as entries:
            return sorted(entry.name for entry in entries if not entry.name.startswith(".") and entry.is_dir())
    except OSError:
        return []


def top_files(folder: str) -> tuple[str, ...]:
    """The spec files at the top of a domain's folder, sorted."""
    try:
        with os.scandir(folder) as entries:
            return tuple(
                sorted(
                    entry.name
                    for entry in entries
                    if not entry.name.startswith(".") and entry.name.lower().endswith(SPEC_SUFFIXES) and entry.is_file()
                )
            )
    except OSError:
        return ()


def list_domains(root: str | Path) -> list[DomainFolder]:
    """Every `specs/<domain>/` folder, sorted by name, with its top files and its stamp."""
    from pathlib import Path  # listed only to read the domains again, under the builder's lock

    specs = os.path.join(root, SPECS_DIR)
    found = []
    for name in domain_names(specs):
        path = os.path.join(specs, name)
        stamp, _ = stamp_before_read(path)  # before the listing: an entry added meanwhile shows next time
        found.append(DomainFolder(name, Path(path), top_files(path), stamp))
    return found
