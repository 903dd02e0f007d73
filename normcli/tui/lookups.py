"""What the reader asks of issue 17's operations: a clause's diff against the previous edition, and
the clauses that cite it. Each call holds the library's lock, as every TUI read of the service does."""

from __future__ import annotations

from normcli import results as r
from normcli.lookups import previous_edition
from normcli.tui.library import Library, Location


def diff_with_previous(library: Library, section: r.SectionResult) -> r.DiffResult | None:
    """The changes of the clause being read since the edition before its own (None when there is none).

    The older edition is read in the same language when it has it; else in its default one, and the
    answer says that the two are compared by their values only."""
    edition = section.edition
    with library._lock:
        older = previous_edition(library.service.catalogue(), edition.code, edition.edition)
        if older is None:
            return None
        languages = library.service.version(edition.code, older).languages
        from_language = edition.language if edition.language in languages else None
        return library.service.diff(
            f"{edition.code}:{older}", f"{edition.code}:{edition.edition}", section.path, None, from_language, edition.language
        )


def cited_by(library: Library, location: Location, section: r.SectionResult) -> r.XrefsResult:
    """Every clause of every norm that refers to the clause being read."""
    edition = section.edition
    with library._lock:
        return library.service.xrefs(location.code, section.path, edition.edition, edition.language, "incoming")
