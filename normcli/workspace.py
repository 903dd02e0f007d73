"""Find the workspace, read its settings and list its bundles with their fingerprints.

Every call's start-up runs through here, so the read path works on plain `str` paths with `os.path`:
`pathlib` (with the `urllib.parse` and `ipaddress` it imports) costs a tenth of a `--json` call. A
`Path` is made only where a caller asks for one (`Located.root`, `BundleFile.path`).
"""

from __future__ import annotations

import os
import sys

from normcli.errors import InvalidArgument, WorkspaceError
from normcli.lean_json import loads
from normcli.record import record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    from pathlib import Path

    StrPath = str | os.PathLike[str]

LANGUAGES = ("fr", "de", "it", "en")  # the language versions a norm may have

ENV_VAR = "NORMCLI_WORKSPACE"
_LOWERCASE = frozenset("abcdefghijklmnopqrstuvwxyz")
SETTINGS_FILE = "normcli.toml"
SETTINGS_KEPT = "settings.json"  # what normcli.toml said, in the index folder
INDEX_DIR = ".normcli"
SPECS_DIR = "specs"  # the API specs, one folder per domain (`specs.files`)


def language_of(file: Path) -> str | None:
    """The language a bundle file's name declares (`norm.de.md` → `de`), None for `norm.md`."""
    name = file.name
    return name[5:7] if name != "norm.md" and is_bundle_file(name) else None


def is_bundle_file(name: str) -> bool:
    """Whether a file name is one of a bundle's Markdown files."""
    # `norm.md` or `norm.<two lowercase letters>.md`, matched without `re` (with `enum`, a tenth of a
    # `--json` read's start-up).
    return name == "norm.md" or (
        len(name) == 10 and name.startswith("norm.") and name.endswith(".md") and name[5] in _LOWERCASE and name[6] in _LOWERCASE
    )


_PACKAGE = os.path.dirname(os.path.realpath(__file__))


def sample_workspace() -> str:
    """The sample workspace shipped with the package (inside it when installed, beside it in a checkout)."""
    for candidate in (os.path.join(_PACKAGE, "sample_workspace"), os.path.join(os.path.dirname(_PACKAGE), "sample_workspace")):
        if os.path.isdir(os.path.join(candidate, "norms")):
            return candidate
    raise WorkspaceError("the sample workspace is missing from this installation", "reinstall normcli")


@record
class Located:
    """A workspace folder (absolute, links resolved) and how it was chosen, for the note printed when it is the sample."""

    folder: str
    is_sample: bool = False

    @property
    def root(self) -> Path:
        """The folder as a Path (made when asked: the read path works on `folder`)."""
        from pathlib import Path

        return Path(self.folder)


def create_workspace(root: Path, name: str | None = None, language: str | None = None) -> list[str]:
    """Make `root` a workspace: the folder, `norms/` and a `normcli.toml` naming it. What exists
    is kept as it is (nothing is overwritten); the answer lists what was created."""
    if root.exists() and not root.is_dir():
        raise WorkspaceError(f"'{root}' exists and is not a folder", "choose another path", "workspace")
    if language is not None and language not in LANGUAGES:
        raise InvalidArgument(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}", param="language")
    created = []
    try:
        if not root.exists():
            root.mkdir(parents=True)
            created.append(str(root))
        if not (root / "norms").is_dir():
            (root / "norms").mkdir()
            created.append(str(root / "norms"))
        settings = root / "normcli.toml"
        if not settings.exists():
            shown = (name or root.resolve().name).replace("\\", "\\\\").replace('"', '\\"')
            lines = ["# A normcli workspace: put bundles under norms/ (normcli ingest FILE --code … --edition …).", f'name = "{shown}"']
            if language:
                lines.append(f'language = "{language}"')
            temporary = settings.with_name(".normcli.toml.tmp")
            temporary.write_text("\n".join(lines) + "\n", encoding="utf-8")
            os.replace(temporary, settings)
            created.append(str(settings))
    except OSError as error:
        raise WorkspaceError(
            f"cannot create the workspace '{root}': {error.strerror}", "check the folder's permissions", "workspace"
        ) from None
    return created


def locate(explicit: StrPath | None = None, start: StrPath | None = None) -> Located:
    """`--workspace`, else $NORMCLI_WORKSPACE, else the nearest folder with `norms/` or `normcli.toml`, else the sample."""
    chosen = os.fspath(explicit) if explicit else os.environ.get(ENV_VAR)
    if chosen:
        root = os.path.expanduser(chosen)
        if not os.path.isdir(root):
            raise WorkspaceError(
                f"workspace '{root}' is not a folder", "name a folder that holds norms/, or create one (init)", "workspace"
            )
        return Located(os.path.realpath(root))
    folder = os.path.realpath(start if start is not None else os.getcwd())
    while True:
        if os.path.isdir(os.path.join(folder, "norms")) or os.path.isfile(os.path.join(folder, SETTINGS_FILE)):
            return Located(folder)
        parent = os.path.dirname(folder)
        if parent == folder:
            return Located(sample_workspace(), is_sample=True)
        folder = parent


@record
class Settings:
    """What `normcli.toml` says: a name, a preferred language, extra methodology text."""

    name: str
    language: str | None = None
    methodology_extra: str = ""
    problems: tuple[str, ...] = ()


def read_settings(root: StrPath) -> Settings:
    """Read `normcli.toml`; a broken file is reported, never fatal.

    What the file says is kept beside the index with the file's fingerprint: importing `tomllib`
    costs 8-17 ms, a third of a whole `--json` call, and the file rarely changes.
    """
    root = os.fspath(root)
    name = os.path.basename(root)
    file = os.path.join(root, SETTINGS_FILE)
    try:
        stat = os.stat(file)
    except OSError:
        return Settings(name=name)
    if not os.path.isfile(file):
        return Settings(name=name)
    fingerprint = [stat.st_mtime_ns, stat.st_size]
    try:
        kept: str | None = os.path.join(index_folder(root), SETTINGS_KEPT)
    except WorkspaceError:
        kept = None
    said = _kept_settings(kept, fingerprint) if kept else None
    if said is None:
        said = _parse_settings(file)
        if kept:
            _keep_settings(kept, fingerprint, said)
    return Settings(said["name"] or name, said["language"], said["methodology_extra"], tuple(said["problems"]))


def _kept_settings(kept: str, fingerprint: list[int]) -> dict | None:
    try:
        with open(kept, encoding="utf-8") as handle:
            saved = loads(handle.read())
        said = saved["settings"]
        return said if saved["file"] == fingerprint and set(said) == {"name", "language", "methodology_extra", "problems"} else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _remove(file: str) -> None:
    """Remove a file if it is there and can be; keeping the settings is only a saving."""
    try:
        os.unlink(file)
    except OSError:  # not contextlib.suppress: no read loads contextlib
        return


def _keep_settings(kept: str, fingerprint: list[int], said: dict) -> None:
    import json  # written only when normcli.toml changed

    temporary = f"{kept}.tmp-{os.getpid()}"
    try:
        _remove(temporary)
        with open(temporary, "x", encoding="utf-8") as handle:  # never through a link left in its place
            handle.write(json.dumps({"file": fingerprint, "settings": said}))
        os.replace(temporary, kept)
    except OSError:
        _remove(temporary)


def load_settings_file(file: StrPath) -> tuple[dict, str | None]:
    """The whole of a `normcli.toml` as a dict, or an empty one and the line that says why it cannot be read.

    Every reader of the file (the workspace settings, `[mcp]`, `[ask]`) goes through here.
    """
    import tomllib  # 8–17 ms: only when the file is read

    try:
        with open(file, encoding="utf-8") as handle:
            return tomllib.loads(handle.read()), None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError, RecursionError) as exc:
        return {}, f"{SETTINGS_FILE}: {exc}"


def _parse_settings(file: str) -> dict:
    """What `normcli.toml` says, as the fields of Settings (`name` None when it names nothing)."""
    data, problem = load_settings_file(file)
    if problem is not None:
        return {"name": None, "language": None, "methodology_extra": "", "problems": [problem]}
    language = data.get("language")
    methodology = data.get("methodology")
    if isinstance(methodology, dict):
        methodology = str(methodology.get("extra") or "")
    return {
        "name": str(data["name"]) if data.get("name") else None,
        "language": str(language).lower() if language else None,
        "methodology_extra": methodology if isinstance(methodology, str) else "",
        "problems": [],
    }


@record
class BundleFile:
    """A bundle file on disk with the stat fingerprint that decides whether to re-index it."""

    location: str
    relative: str
    mtime_ns: int
    size: int

    @property
    def path(self) -> Path:
        """The file as a Path (made when asked: every call lists every bundle, few read one)."""
        from pathlib import Path

        return Path(self.location)


def list_bundle_files(root: StrPath) -> list[BundleFile]:
    """Every `norms/<slug>/<edition>/norm*.md`, sorted; one stat per file, no reading.

    On every call's path, so plain strings and one sort: 1,000 bundles are listed in about 8 ms.
    """
    norms = os.path.join(root, "norms")
    found: list[tuple[str, str, str, BundleFile]] = []
    try:
        slugs = list(os.scandir(norms))
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise WorkspaceError(f"cannot read {norms}: {exc.strerror}", "check the folder's permissions") from exc
    for slug in slugs:
        if slug.name.startswith(".") or not slug.is_dir():
            continue
        try:
            editions = list(os.scandir(slug.path))
        except OSError:
            continue
        for edition in editions:
            if edition.name.startswith(".") or not edition.is_dir():
                continue
            try:
                entries = [entry for entry in os.scandir(edition.path) if is_bundle_file(entry.name)]
            except OSError:
                continue
            for entry in entries:
                try:
                    stat = entry.stat()
                except OSError:
                    continue
                relative = "/".join(("norms", *map(_as_text, (slug.name, edition.name, entry.name))))
                found.append((slug.name, edition.name, entry.name, BundleFile(entry.path, relative, stat.st_mtime_ns, stat.st_size)))
    found.sort(key=lambda item: item[:3])
    return [item[3] for item in found]


def _as_text(name: str) -> str:
    """A file name as text that can be stored: bytes that are not UTF-8 (which Python keeps as lone
    surrogates) are written as escapes (`bad\\xff`), so that such a folder is indexed like any other."""
    return name if name.isascii() else name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def cache_folder(root: StrPath) -> str:
    """Where the index lives when the workspace cannot be written: the user cache folder."""
    home = os.path.expanduser("~")
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local")
    elif sys.platform == "darwin":
        base = os.path.join(home, "Library", "Caches")
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache")
    import hashlib

    digest = hashlib.sha1(os.fspath(root).encode()).hexdigest()[:16]
    return os.path.join(base, "normcli", digest)


def index_folder(root: StrPath) -> str:
    """`.normcli/` in the workspace when it can be written there, else the user cache folder.

    The sample shipped with the package is indexed in the cache too: site-packages, or the
    sample folder of a source checkout, is no place to write.
    """
    local = os.path.join(root, INDEX_DIR)
    resolved = os.path.realpath(root)
    inside_package = resolved == _PACKAGE or resolved.startswith(_PACKAGE + os.sep)
    if not inside_package and resolved != os.path.join(os.path.dirname(_PACKAGE), "sample_workspace"):
        if os.path.isdir(local) and os.access(local, os.W_OK):
            return local
        if not os.path.exists(local) and os.access(root, os.W_OK):
            try:
                os.mkdir(local)
                return local
            except OSError:
                pass
    fallback = cache_folder(root)
    try:
        os.makedirs(fallback, exist_ok=True)
    except OSError as exc:
        raise WorkspaceError(
            f"cannot keep the index: {root} is read-only and the cache folder {fallback} cannot be made ({exc.strerror})",
            "make the workspace or $XDG_CACHE_HOME writable",
        ) from exc
    return fallback
