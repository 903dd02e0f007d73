"""What the reader keeps in the user's data folder (never in the workspace): bookmarks and the chosen theme."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

DATA_DIR_ENV = "NORMCLI_DATA_DIR"


def data_dir() -> Path:
    """`$NORMCLI_DATA_DIR`, else the platform's user data folder for normcli."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("normcli", appauthor=False))


@dataclass(frozen=True)
class Bookmark:
    """One bookmarked clause of one workspace."""

    workspace: str
    code: str
    edition: str
    language: str
    path: str
    title: str
    page: int | None  # None for a document without printed pages

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        """What makes two bookmarks the same."""
        return (self.workspace, self.code, self.edition, self.language, self.path)


class Bookmarks:
    """The bookmarks file: a JSON list, rewritten atomically on every change."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or data_dir() / "bookmarks.json"
        self._items: list[Bookmark] = self._load()

    def _load(self) -> list[Bookmark]:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            return [Bookmark(**{name: item[name] for name in Bookmark.__dataclass_fields__}) for item in raw]
        except (OSError, ValueError, TypeError, KeyError):
            return []

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".bookmarks-", suffix=".json")
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump([asdict(item) for item in self._items], stream, ensure_ascii=False, indent=1)
        os.replace(temporary, self.path)

    def of(self, workspace: str) -> list[Bookmark]:
        """The bookmarks of one workspace, oldest first."""
        return [item for item in self._items if item.workspace == workspace]

    def has(self, bookmark: Bookmark) -> bool:
        """Whether this clause is bookmarked."""
        return any(item.key == bookmark.key for item in self._items)

    def toggle(self, bookmark: Bookmark) -> bool:
        """Add the bookmark, or remove it when it is there; True when it was added."""
        if self.has(bookmark):
            self.remove(bookmark)
            return False
        self._items.append(bookmark)
        self._save()
        return True

    def remove(self, bookmark: Bookmark) -> None:
        """Forget one bookmark."""
        self._items = [item for item in self._items if item.key != bookmark.key]
        self._save()


class Preferences:
    """Small settings that survive restarts (the theme), in `tui.json` next to the bookmarks."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or data_dir() / "tui.json"
        try:
            loaded = json.loads(self.path.read_text(encoding="utf-8"))
            self.values: dict[str, str] = loaded if isinstance(loaded, dict) else {}
        except (OSError, ValueError):
            self.values = {}

    def get(self, name: str) -> str | None:
        """A saved setting, or None."""
        value = self.values.get(name)
        return value if isinstance(value, str) else None

    def set(self, name: str, value: str) -> None:
        """Save a setting (a failure to write is not worth interrupting the reader)."""
        self.values[name] = value
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial = self.path.with_suffix(".json.partial")
            partial.write_text(json.dumps(self.values, indent=1), encoding="utf-8")
            partial.replace(self.path)  # whole or not at all
        except OSError:
            pass
