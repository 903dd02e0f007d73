"""The spec tables of the index (SPEC §7), beside the norms' tables in the same SQLite file.

They are made on first use, and made anew when `SPEC_SCHEMA` changes, whatever the norms' schema
version: `store.spec_refresh` compares it, `store.spec_build` writes the tables, `store.spec_queries`
reads them.
"""

from __future__ import annotations

SPEC_SCHEMA = "9"  # bump whenever what spec_build writes changes: the spec tables are then made anew
SPEC_SCHEMA_KEY = "spec_schema"
SPEC_FOLDER_KEY = "spec_folder"  # the stamp of `specs/` when its domains were last listed
# A domain's files are kept in three lists, each with its stamps (`specs.files`): `files`, those every
# answer about the domain is made of (the root, the top files, what the listing walk read); `search_files`,
# the others that search is made of; `more_files`, the rest. A method's `files` are the positions, in
# `search_files` followed by `more_files`, of the files its page is made of beyond `files`.
FTS = "spec_fts"
TABLES = ("spec_domains", "spec_collections", "spec_tags", "spec_collection_tags", "spec_methods", "spec_method_tags", "spec_refs", FTS)

CREATE = f"""
CREATE TABLE spec_domains (
    id INTEGER PRIMARY KEY, domain TEXT UNIQUE, spec_id TEXT, root TEXT, title TEXT, version TEXT, format TEXT,
    readable INTEGER, problems TEXT, folder TEXT, top TEXT, files TEXT, fingerprint TEXT,
    search_files TEXT, search_fingerprint TEXT, more_files TEXT, more_fingerprint TEXT, bytes INTEGER, methods INTEGER
);
CREATE INDEX idx_spec_domains_id ON spec_domains (spec_id);
CREATE TABLE spec_collections (
    domain_row INTEGER, ord INTEGER, collection_id TEXT, title TEXT, llm_title TEXT, count_tags INTEGER, count_methods INTEGER
);
CREATE INDEX idx_spec_collections ON spec_collections (collection_id);
CREATE INDEX idx_spec_collections_domain ON spec_collections (domain_row, ord);
CREATE TABLE spec_tags (domain_row INTEGER, ord INTEGER, tag_id TEXT, name TEXT, description TEXT, count_methods INTEGER);
CREATE INDEX idx_spec_tags ON spec_tags (tag_id);
CREATE INDEX idx_spec_tags_domain ON spec_tags (domain_row, ord);
CREATE TABLE spec_collection_tags (domain_row INTEGER, collection_id TEXT, tag_id TEXT, ord INTEGER);
CREATE INDEX idx_spec_collection_tags ON spec_collection_tags (collection_id, ord);
CREATE TABLE spec_methods (
    id INTEGER PRIMARY KEY, domain_row INTEGER, ord INTEGER, method_id TEXT, verb TEXT, path TEXT, summary TEXT,
    description TEXT, operation_id TEXT, deprecated INTEGER, webhook INTEGER, tags TEXT, file TEXT, line INTEGER, body TEXT, files TEXT
);
CREATE INDEX idx_spec_methods ON spec_methods (method_id);
CREATE INDEX idx_spec_methods_domain ON spec_methods (domain_row, ord);
CREATE TABLE spec_method_tags (domain_row INTEGER, tag_id TEXT, method_row INTEGER, ord INTEGER);
CREATE INDEX idx_spec_method_tags ON spec_method_tags (tag_id, ord);
CREATE TABLE spec_refs (domain_row INTEGER, key TEXT, body TEXT);
CREATE INDEX idx_spec_refs ON spec_refs (domain_row, key);
CREATE VIRTUAL TABLE {FTS} USING fts5(path, summary, body, tokenize='unicode61 remove_diacritics 2');
"""
