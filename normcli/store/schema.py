"""The index schema. A file whose application id or version differs is foreign and is rebuilt."""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    import sqlite3

    StrPath = str | os.PathLike[str]

APPLICATION_ID = 0x4E524D43  # "NRMC"
SCHEMA_VERSION = 21  # bump whenever what the builder writes changes
INDEX_FILE = "index.sqlite"

# Keys of the meta table, written by the builder and read by refresh and the service.
FOLD_VERSION_KEY = "fold_version"
BUILT_AT_KEY = "built_at"

FTS_TABLE = "nodes_fts"
TITLES_TABLE = "titles_fts"
TERMS_FTS = "terms_fts"
# Words shorter than this are not looked up inside others: `Gefälle` (7) finds `Längsgefälle`,
# `Last` does not drag in every compound that ends in -last.
INFIX_MIN = 6


def create(db) -> None:
    """Create every table of an empty index through sqlite-utils."""
    db.table("meta").create({"key": str, "value": str}, pk="key")
    db.table("bundles").create(
        {
            "id": int,
            "file": str,
            "mtime_ns": int,
            "size": int,
            "readable": int,
            "code": str,
            "code_key": str,
            "edition": str,
            "year": int,
            "language": str,
            "title": str,
            "scope": str,
            "published": int,
            "demo": int,
            "requires": str,
            "pages": int,
            "sections": int,
            "problems": str,
        },
        pk="id",
    )
    db.table("bundles").create_index(["file"], unique=True)
    db.table("bundles").create_index(["code_key", "edition"])
    db.table("nodes").create(
        {
            "id": int,
            "bundle_id": int,
            "ord": int,
            "node_id": str,
            "path": str,
            "path_key": str,
            "title": str,
            "depth": int,
            "line": int,
            "parent_path": str,
            "child_count": int,
            "page_start": int,
            "page_end": int,
            "summary": str,
            "text": str,
        },
        pk="id",
    )
    db.table("nodes").create_index(["bundle_id", "path_key"])
    db.table("nodes").create_index(["bundle_id", "ord"])
    db.table("figures").create({"bundle_id": int, "fig_id": str, "number": str, "caption": str, "file": str, "node_path": str})
    db.table("figures").create_index(["bundle_id", "fig_id"])
    db.table("norm_tables").create(
        {"bundle_id": int, "table_id": str, "number": str, "caption": str, "markdown": str, "node_path": str, "page": int}
    )
    db.table("norm_tables").create_index(["bundle_id", "node_path"])
    db.table("formulas").create({"bundle_id": int, "number": str, "latex": str, "node_path": str})
    db.table("formulas").create_index(["bundle_id", "node_path"])
    db.table("xrefs").create(
        {
            "bundle_id": int,
            "node_row": int,
            "ord": int,
            "position": int,
            "line": int,
            "text": str,
            "type": str,
            "target_code": str,
            "target_path": str,
            "target_kind": str,
            "target_key": str,
            "target_norm": str,
            "target_ref": str,
        }
    )
    db.table("xrefs").create_index(["node_row"])
    # Who refers to a clause (`xrefs --incoming`): every reference to a clause or annex, of this norm or
    # another, by the folded code of the norm it names and the folded path.
    db.execute("CREATE INDEX idx_xrefs_incoming ON xrefs (target_norm, target_ref) WHERE target_ref IS NOT NULL")
    # Where a term is defined (`define`): found at index time by normcli.definitions.
    db.table("definitions").create(
        {
            "bundle_id": int,
            "node_row": int,
            "ord": int,
            "term": str,
            "kind": str,
            "term_key": str,
            "stem_key": str,
            "definition": str,
            "definition_key": str,
        }
    )
    db.table("definitions").create_index(["term_key"])
    db.table("definitions").create_index(["stem_key"])
    db.table("definitions").create_index(["bundle_id"])
    # The references each clause makes to another of its own norm, in reading order: `mentions`
    # reads the first few of them without sorting all references to a common number such as 2.1.
    db.execute(
        "CREATE INDEX idx_xrefs_mentions ON xrefs (target_key, node_row) WHERE target_code IS NULL AND target_kind IN ('clause', 'annex')"
    )
    # Contentless: the folded text is only indexed, never stored twice; snippets come from nodes.text.
    db.execute(f"CREATE VIRTUAL TABLE {FTS_TABLE} USING fts5(title, body, content='', tokenize='unicode61 remove_diacritics 2')")
    # The titles again, on their own: a title search in the table above walks the whole postings
    # of every word (`de` is in most French clauses) to find the few in titles; here it reads titles only.
    db.execute(f"CREATE VIRTUAL TABLE {TITLES_TABLE} USING fts5(title, content='', tokenize='unicode61 remove_diacritics 2')")
    # The long words of every text, once each, with a trigram index: the words that hold a searched
    # word inside them (German compounds), found without a trigram index over all the text.
    db.execute("CREATE TABLE terms (id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE)")
    db.execute(f"CREATE VIRTUAL TABLE {TERMS_FTS} USING fts5(term, content='terms', content_rowid='id', tokenize='trigram')")
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


TEXT_DICTIONARY_KEY = "text_dictionary"
DICTIONARY_BYTES = 16 * 1024
PACK_ABOVE = 60


class TextPacker:
    """How clause texts are stored: zlib-compressed with a dictionary of the workspace's own prose.

    A clause is short (a few hundred characters) and zlib alone saves little on it; primed with
    16 KB of prose sampled from the bundles it finds most words and phrases already written. The
    dictionary is chosen at a full build and kept in `meta`, so that a refresh packs new texts with
    the same one.
    """

    def __init__(self, dictionary: bytes) -> None:
        self.dictionary = dictionary

    def pack(self, text: str) -> str | bytes:
        """A clause's text as stored: compressed unless it is short."""
        if len(text) <= PACK_ABOVE:
            return text
        import zlib

        if not self.dictionary:
            return zlib.compress(text.encode("utf-8"), 6)
        packer = zlib.compressobj(6, zdict=self.dictionary)
        return packer.compress(text.encode("utf-8")) + packer.flush()

    def unpack(self, value: str | bytes | None) -> str:
        """The text `pack` stored."""
        if value is None:
            return ""
        if isinstance(value, str):
            return value
        import zlib

        if not self.dictionary:
            return zlib.decompress(value).decode("utf-8")
        unpacker = zlib.decompressobj(zdict=self.dictionary)
        return (unpacker.decompress(value) + unpacker.flush()).decode("utf-8")


def read_only_uri(path: StrPath) -> str:
    """The SQLite URI that opens `path` read-only, percent-encoded: a folder named `Projekt #12`,
    `what?` or `50%` would otherwise cut the URI short and open another file, or none.

    SQLite reads the path up to `?` or `#` and decodes `%XX`; so those three are encoded, and every
    byte outside ASCII too (a folder name that is not UTF-8). Written out rather than through
    `pathlib`/`urllib.parse`, whose import is a tenth of a `--json` call's start-up."""
    absolute = os.fsencode(os.path.abspath(path))
    if os.sep != "/":
        absolute = absolute.replace(os.sep.encode(), b"/")
    if not absolute.startswith(b"/"):  # a Windows drive: file:///C:/…
        absolute = b"/" + absolute
    encoded = "".join(chr(byte) if byte < 0x80 and byte not in b"%?#" else f"%{byte:02X}" for byte in absolute)
    return f"file://{encoded}?mode=ro"


def is_ours(connection: sqlite3.Connection) -> bool:
    """Whether an open file is a normcli index of this schema version (raises on a non-database)."""
    application_id = connection.execute("PRAGMA application_id").fetchone()[0]
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    return application_id == APPLICATION_ID and version == SCHEMA_VERSION
