"""Find the workspace, read its settings and list its bundles with their fingerprints."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

from normcli.errors import InvalidArgument, WorkspaceError
from normcli.record import record

LANGUAGES = ("fr", "de", "it", "en")  # the language versions a norm may have

ENV_VAR = "NORMCLI_WORKSPACE"
_BUNDLE_FILE = re.compile(r"^norm(?:\.(?P<lang>[a-z]{2}))?\.md$")
SETTINGS_FILE = "normcli.toml"
SETTINGS_KEPT = "settings.json"  # what normcli.toml said, in the index folder
INDEX_DIR = ".normcli"


def language_of(file: Path) -> str | None:
    """The language a bundle file's name declares (`norm.de.md` → `de`), None for `norm.md`."""
    match = _BUNDLE_FILE.match(file.name)
    return match.group("lang") if match else None


def is_bundle_file(name: str) -> bool:
    """Whether a file name is one of a bundle's Markdown files."""
    return _BUNDLE_FILE.match(name) is not None


def sample_workspace() -> Path:
    """The sample workspace shipped with the package (inside it when installed, beside it in a checkout)."""
    package = Path(__file__).resolve().parent
    for candidate in (package / "sample_workspace", package.parent / "sample_workspace"):
        if (candidate / "norms").is_dir():
            return candidate
    raise WorkspaceError("the sample workspace is missing from this installation", "reinstall normcli")


@record
class Located:
    """A workspace folder and how it was chosen, for the note printed when it is the sample."""

    root: Path
    is_sample: bool = False


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


def locate(explicit: str | os.PathLike[str] | None = None, start: Path | None = None) -> Located:
    """`--workspace`, else $NORMCLI_WORKSPACE, else the nearest folder with `norms/` or `normcli.toml`, else the sample."""
    chosen = explicit or os.environ.get(ENV_VAR)
    if chosen:
        root = Path(chosen).expanduser()
        if not root.is_dir():
            raise WorkspaceError(
                f"workspace '{root}' is not a folder", "name a folder that holds norms/, or create one (init)", "workspace"
            )
        return Located(root.resolve())
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "norms").is_dir() or (folder / SETTINGS_FILE).is_file():
            return Located(folder)
    return Located(sample_workspace(), is_sample=True)


@record
class Settings:
    """What `normcli.toml` says: a name, a preferred language, extra methodology text."""

    name: str
    language: str | None = None
    methodology_extra: str = ""
    problems: tuple[str, ...] = ()


def read_settings(root: Path) -> Settings:
    """Read `normcli.toml`; a broken file is reported, never fatal.

    What the file says is kept beside the index with the file's fingerprint: importing `tomllib`
    costs 8-17 ms, a third of a whole `--json` call, and the file rarely changes.
    """
    file = root / SETTINGS_FILE
    try:
        stat = file.stat()
    except OSError:
        return Settings(name=root.name)
    if not file.is_file():
        return Settings(name=root.name)
    fingerprint = [stat.st_mtime_ns, stat.st_size]
    try:
        kept: Path | None = index_folder(root) / SETTINGS_KEPT
    except WorkspaceError:
        kept = None
    said = _kept_settings(kept, fingerprint) if kept else None
    if said is None:
        said = _parse_settings(file)
        if kept:
            _keep_settings(kept, fingerprint, said)
    return Settings(said["name"] or root.name, said["language"], said["methodology_extra"], tuple(said["problems"]))


def _kept_settings(kept: Path, fingerprint: list[int]) -> dict | None:
    try:
        saved = json.loads(kept.read_text(encoding="utf-8"))
        said = saved["settings"]
        return said if saved["file"] == fingerprint and set(said) == {"name", "language", "methodology_extra", "problems"} else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _keep_settings(kept: Path, fingerprint: list[int], said: dict) -> None:
    temporary = kept.with_name(f"{kept.name}.tmp-{os.getpid()}")
    try:
        temporary.unlink(missing_ok=True)
        with open(temporary, "x", encoding="utf-8") as handle:  # never through a link left in its place
            handle.write(json.dumps({"file": fingerprint, "settings": said}))
        os.replace(temporary, kept)
    except OSError:
        temporary.unlink(missing_ok=True)


def load_settings_file(file: Path) -> tuple[dict, str | None]:
    """The whole of a `normcli.toml` as a dict, or an empty one and the line that says why it cannot be read.

    Every reader of the file (the workspace settings, `[mcp]`, `[ask]`) goes through here.
    """
    import tomllib  # 8–17 ms: only when the file is read

    try:
        return tomllib.loads(file.read_text(encoding="utf-8")), None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError, RecursionError) as exc:
        return {}, f"{SETTINGS_FILE}: {exc}"


def _parse_settings(file: Path) -> dict:
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
        return Path(self.location)


def list_bundle_files(root: Path) -> list[BundleFile]:
    """Every `norms/<slug>/<edition>/norm*.md`, sorted; one stat per file, no reading.

    On every call's path, so plain strings and one sort: 1,000 bundles are listed in about 8 ms.
    """
    norms = root / "norms"
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


def cache_folder(root: Path) -> Path:
    """Where the index lives when the workspace cannot be written: the user cache folder."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    import hashlib

    digest = hashlib.sha1(str(root).encode()).hexdigest()[:16]
    return base / "normcli" / digest


def index_folder(root: Path) -> Path:
    """`.normcli/` in the workspace when it can be written there, else the user cache folder.

    The sample shipped with the package is indexed in the cache too: site-packages, or the
    sample folder of a source checkout, is no place to write.
    """
    local = root / INDEX_DIR
    resolved = root.resolve()
    inside_package = (
        resolved.is_relative_to(Path(__file__).resolve().parent) or resolved == Path(__file__).resolve().parents[1] / "sample_workspace"
    )
    if not inside_package:
        if local.is_dir() and os.access(local, os.W_OK):
            return local
        if not local.exists() and os.access(root, os.W_OK):
            try:
                local.mkdir()
                return local
            except OSError:
                pass
    fallback = cache_folder(root)
    try:
        fallback.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WorkspaceError(
            f"cannot keep the index: {root} is read-only and the cache folder {fallback} cannot be made ({exc.strerror})",
            "make the workspace or $XDG_CACHE_HOME writable",
        ) from exc
    return fallback
