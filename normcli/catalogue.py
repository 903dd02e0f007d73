"""What a workspace holds: its norms, their editions and language versions, and which bundle a read uses.

Built from the index's bundle rows (again whenever the index changes). It chooses the edition a read
defaults to (the newest published), the language version (the workspace's preferred language, else
the edition's first), and which of two bundles declaring the same norm, edition and language is read.
"""

from __future__ import annotations

import itertools

from normcli import results as r
from normcli.errors import InvalidArgument, NotFound
from normcli.fold import code_key
from normcli.lean_json import loads
from normcli.operations import CODE
from normcli.record import record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    import sqlite3


@record
class Version:
    """One language version of one edition: the bundle an answer is read from."""

    bundle_id: int
    code: str
    edition: str
    language: str
    languages: tuple[str, ...]
    title: str
    file: str
    published: bool = True

    def describe(self) -> r.Edition:
        """The edition block every per-norm answer carries."""
        return r.Edition(self.code, self.edition, self.language, self.languages, self.title, self.published)

    @property
    def label(self) -> str:
        """`SIA 261:2020` (with the language when the edition has several)."""
        suffix = f" ({self.language})" if len(self.languages) > 1 else ""
        return f"{self.code}:{self.edition}{suffix}"


def version_of(bundle: sqlite3.Row, rows: list[sqlite3.Row]) -> Version:
    """The `Version` of one bundle row, given the rows of all languages of its edition."""
    languages = tuple(row["language"] for row in rows)
    return Version(
        bundle["id"],
        bundle["code"],
        bundle["edition"],
        bundle["language"],
        languages,
        bundle["title"],
        bundle["file"],
        bool(bundle["published"]),
    )


def split_code(code: str, edition: str | None) -> tuple[str, str | None]:
    """`SIA 261:2014` → (`SIA 261`, `2014`); an explicit edition must agree with the suffix (SPEC §6)."""
    if not isinstance(code, str) or not code.strip():
        raise InvalidArgument("a norm code is required (for example 'SIA 261')", param="code")
    if len(code) > (CODE.high or 0) or any(ord(char) < 32 for char in code):
        raise InvalidArgument("the norm code is too long or holds control characters", param="code")
    base, sep, suffix = code.rpartition(":")
    if sep and base.strip() and suffix.strip():
        named = suffix.strip()
        if edition is not None and code_key(str(edition)) != code_key(named):
            raise InvalidArgument(f"'{code.strip()}' names edition {named}, but edition {edition} is asked too", param="edition")
        return base.strip(), named
    return code.strip(), edition


class Catalogue:
    """The readable bundles by norm and edition, and the choices every per-norm read makes."""

    def __init__(self, bundles: list[sqlite3.Row], preferred_language: str | None) -> None:
        self.bundles = bundles
        self.preferred_language = preferred_language
        self.readable = [row for row in bundles if row["readable"]]
        self.by_code, self.hidden = _group(self.readable)
        self._defaults: dict[str, list[sqlite3.Row]] | None = None
        self._listing: r.NormsResult | None = None

    def unreadable(self) -> list[str]:
        """The bundle files that could not be read (`check` says why), in file order."""
        return [row["file"] for row in self.bundles if not row["readable"]]

    def unreadable_problems(self) -> tuple[dict, ...]:
        """For each bundle file that could not be read, in file order, the first error `check` reports for it."""
        said = []
        for row in self.bundles:
            if not row["readable"]:
                errors = [problem for problem in loads(row["problems"] or "[]") if problem.get("severity") == "error"]
                said.append(
                    errors[0]
                    if errors
                    else {"file": row["file"], "line": 0, "severity": "error", "kind": "unreadable", "reason": "cannot be read"}
                )
        return tuple(said)

    def editions_of(self, code: str) -> dict[str, list[sqlite3.Row]]:
        """The editions of a norm (any spelling of its code), each with its language versions."""
        editions = self.by_code.get(code_key(code))
        if not editions:
            raise NotFound("norm", code, self.nearest_codes(code))
        return editions

    def version(self, code: str, edition: str | None = None, language: str | None = None) -> Version:
        """The bundle a per-norm read uses: newest published edition and preferred language by default."""
        code, edition = split_code(code, edition)
        editions = self.editions_of(code)
        if edition is not None:
            wanted = code_key(str(edition))
            chosen = next((name for name in editions if code_key(name) == wanted), None)
            if chosen is None:
                raise NotFound("edition", str(edition), newest_first(editions), code, f"{code} has no edition '{edition}'")
        else:
            chosen = default_edition(editions)
            if chosen is None:
                known = newest_first(editions)
                raise NotFound("edition", "", known, code, f"{code} has only draft editions ({', '.join(known)})")
        rows = editions[chosen]
        languages = tuple(row["language"] for row in rows)
        if language is not None and not isinstance(language, str):
            raise InvalidArgument(
                f"language must be text such as 'fr', not {language!r}", f"its languages are {', '.join(languages)}", "language"
            )
        if language:
            wanted_language = language.strip().lower()
            row = next((row for row in rows if row["language"] == wanted_language), None)
            if row is None:
                name = f"{rows[0]['code']}:{chosen}"
                raise NotFound("language", language, languages, name, f"{name} has no '{language}' version")
        else:
            row = self.preferred(rows)
        return version_of(row, rows)

    def nearest_codes(self, code: str) -> list[str]:
        """The codes held here, those spelt most like `code` first (for a `not_found` to offer)."""
        import difflib

        codes = {key: editions[next(iter(editions))][0]["code"] for key, editions in self.by_code.items()}
        near = difflib.get_close_matches(code_key(code), list(codes), n=5, cutoff=0.6)
        return [codes[key] for key in near] + sorted(codes[key] for key in codes if key not in near)

    def preferred(self, rows: list[sqlite3.Row]) -> sqlite3.Row:
        """Of an edition's language versions, the one in the workspace's language, else the first."""
        return next((row for row in rows if row["language"] == self.preferred_language), rows[0])

    def default_versions(self) -> dict[str, list[sqlite3.Row]]:
        """For each norm (code key), the bundles (one per language) of its default edition."""
        if self._defaults is None:
            self._defaults = {}
            for key, editions in self.by_code.items():
                chosen = default_edition(editions)
                if chosen is not None:
                    self._defaults[key] = editions[chosen]
        return self._defaults

    def search_versions(self, edition: str | None = None) -> dict[tuple[str, str], list[sqlite3.Row]]:
        """The editions a corpus search reads, by (code key, edition), each with its language versions:
        every norm's default edition (`None` or `newest`), every edition (`all`, drafts too), or the
        editions named `edition` (a year such as `2014`) of the norms that have one."""
        wanted = str(edition).strip() if edition is not None else "newest"
        if wanted.lower() in ("", "newest"):
            return {(key, rows[0]["edition"]): rows for key, rows in self.default_versions().items()}
        chosen = {
            (key, name): editions[name]
            for key, editions in self.by_code.items()
            for name in newest_first(editions)
            if wanted.lower() == "all" or code_key(name) == code_key(wanted) or str(editions[name][0]["year"]) == wanted
        }
        if not chosen:
            held = sorted({name for editions in self.by_code.values() for name in editions}, reverse=True)
            raise NotFound("edition", wanted, [*held, "newest", "all"], message=f"no norm has an edition '{wanted}'")
        return chosen

    def listing(self) -> r.NormsResult:
        """Every norm with its editions, newest first, as `norms` answers it."""
        if self._listing is not None:
            return self._listing
        norms = []
        for editions in self.by_code.values():
            order = newest_first(editions)
            head = self.preferred(editions[default_edition(editions) or order[0]])
            infos = tuple(
                r.EditionInfo(
                    edition=name,
                    year=editions[name][0]["year"] or None,
                    title=self.preferred(editions[name])["title"],
                    published=bool(editions[name][0]["published"]),
                    languages=tuple(row["language"] for row in editions[name]),
                    sections=self.preferred(editions[name])["sections"],
                    pages=self.preferred(editions[name])["pages"],
                )
                for name in order
            )
            norms.append(
                r.NormInfo(
                    code=head["code"],
                    year=head["year"] or None,
                    title=head["title"],
                    language=head["language"],
                    demo=bool(head["demo"]),
                    scope=head["scope"] or "",
                    requires=tuple(loads(head["requires"] or "[]")),
                    editions=infos,
                )
            )
        norms.sort(key=lambda norm: code_key(norm.code))
        self._listing = r.NormsResult(tuple(norms), self.unreadable_problems())
        return self._listing


def newest_first(editions: dict[str, list[sqlite3.Row]]) -> list[str]:
    """Edition names, newest first: by year, then by name with its numbers as numbers."""
    return sorted(editions, key=lambda name: (editions[name][0]["year"], _natural(name)), reverse=True)


def default_edition(editions: dict[str, list[sqlite3.Row]]) -> str | None:
    """The edition a read defaults to: the newest published one (None when all are drafts)."""
    published = [name for name in newest_first(editions) if editions[name][0]["published"]]
    return published[0] if published else None


def _group(readable: list[sqlite3.Row]) -> tuple[dict[str, dict[str, list[sqlite3.Row]]], dict[str, str]]:
    """The readable bundles by norm (code key) and edition, in file order, and the bundles not read.

    Two bundles may declare the same norm, edition and language (a copy, a stray import): one is
    read, the one laid out where SPEC §2 puts it, else the first; the other is hidden (file → the file read).
    """
    catalogue: dict[str, dict[str, list[sqlite3.Row]]] = {}
    for row in readable:
        rows = catalogue.setdefault(row["code_key"], {}).setdefault(row["edition"], [])
        twin = next((other for other in rows if other["language"] == row["language"]), None)
        if twin is None:
            rows.append(row)
        elif _laid_out(row) and not _laid_out(twin):
            rows.remove(twin)
            rows.append(row)  # bundles come in file order, so the languages stay in file order
    read = {
        (row["code_key"], row["edition"], row["language"]): row["file"]
        for editions in catalogue.values()
        for rows in editions.values()
        for row in rows
    }
    hidden = {
        row["file"]: read[(row["code_key"], row["edition"], row["language"])]
        for row in readable
        if read[(row["code_key"], row["edition"], row["language"])] != row["file"]
    }
    return catalogue, hidden


def _natural(name: str) -> tuple[tuple[int, int | str], ...]:
    """An edition name for sorting with its numbers as numbers: `10` after `9`, `2.10` after `2.9`, and
    any number after words (`2020` is newer than `draft`)."""
    # The runs of `[0-9]+|[^0-9]+`, split without `re` (a tenth of a call's start-up with `enum`).
    parts = ["".join(run) for _, run in itertools.groupby(name.lower(), key=_is_digit)]
    return tuple((1, int(part)) if part.isascii() and part.isdigit() else (0, part) for part in parts)


def _is_digit(char: str) -> bool:
    return "0" <= char <= "9"


def _laid_out(bundle: sqlite3.Row) -> bool:
    """Whether a bundle sits where SPEC §2 puts it: `norms/<code-slug>/<edition>/`."""
    parts = bundle["file"].split("/")
    return len(parts) == 4 and code_key(parts[1]) == bundle["code_key"] and code_key(parts[2]) == code_key(bundle["edition"])
