"""How the index follows the spec files: every kind of save is seen, and nothing else costs a read.

Each test counts the domains that one freshness check (re)reads, so that a missed edit (0 where 1 is
due) and a needless re-read (1 where 0 is due, seconds on a large spec) both fail.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from pathlib import Path

import pytest

from tests.conftest import SAMPLE


def _no_lock(_folder: Path) -> contextlib.AbstractContextManager[None]:
    return contextlib.nullcontext()


def check(root: Path, scope: str = "all") -> int:
    """The number of spec domains one freshness check (of every file, or of those of the listings or search) read again or forgot."""
    from normcli.store.schema import INDEX_FILE
    from normcli.store.spec_refresh import refresh_specs
    from normcli.workspace import index_folder

    return refresh_specs(str(root), os.path.join(index_folder(root), INDEX_FILE), _no_lock, scope=scope)


def settled(root: Path) -> None:
    """Wait until no file is too recent to trust (see `specs.files`), and check once so that it is all indexed."""
    from normcli.store.refresh import refresh

    time.sleep(0.15)
    refresh(root)  # the norms' tables first, as every call makes them
    check(root)
    assert check(root) == 0, "an unchanged workspace costs no read"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    shutil.copytree(SAMPLE, root, ignore=shutil.ignore_patterns(".normcli"))
    settled(root)
    return root


def _same_size_edit(path: Path, old: str, new: str) -> None:
    assert len(old.encode()) == len(new.encode())
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_an_in_place_edit_of_the_same_size_with_its_time_set_back_is_seen(workspace: Path) -> None:
    loads = workspace / "specs/meteo/schemas/loads.yaml"  # reached only through a $ref
    before = loads.stat()
    with open(loads, "r+b") as handle:  # as VS Code or `>>` save: the same file, the folder untouched
        text = handle.read()
        handle.seek(0)
        handle.write(text.replace(b"snow", b"SNOW", 1))
    os.utime(loads, ns=(before.st_atime_ns, before.st_mtime_ns))  # and its time put back, as `touch -r` or `cp -p` would
    after = loads.stat()
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (before.st_size, before.st_mtime_ns, before.st_ino)
    assert check(workspace) == 1
    assert check(workspace) in (0, 1)  # the write may be recent enough to be read once more, never more
    time.sleep(0.15)
    check(workspace)
    assert check(workspace) == 0


def test_a_save_by_renaming_a_new_file_over_the_old_is_seen(workspace: Path) -> None:
    root_file = workspace / "specs/meteo/openapi.yaml"
    fresh = root_file.with_name("openapi.yaml.new")
    fresh.write_text(root_file.read_text(encoding="utf-8").replace("Snow", "Neige", 1), encoding="utf-8")
    os.replace(fresh, root_file)  # as vim or sed -i save
    assert check(workspace) == 1


def test_an_editor_swap_file_or_a_note_beside_a_spec_costs_no_read(workspace: Path) -> None:
    folder = workspace / "specs/meteo"
    (folder / ".openapi.yaml.swp").write_bytes(b"vim swap")
    (folder / "NOTES.txt").write_text("not a spec", encoding="utf-8")
    (folder / "schemas" / "draft.yaml").write_text("openapi: 3.0.0\n", encoding="utf-8")  # nothing references it
    assert check(workspace) == 0
    (folder / ".openapi.yaml.swp").unlink()
    assert check(workspace) == 0


def test_a_new_root_file_a_new_domain_and_a_removed_domain_are_seen(workspace: Path) -> None:
    empty = workspace / "specs/later"
    empty.mkdir()
    assert check(workspace) == 1, "a folder without a spec is a domain that `check` reports"
    (empty / "openapi.json").write_text('{"openapi": "3.0.3", "info": {"title": "Later", "version": "1"}, "paths": {}}', encoding="utf-8")
    assert check(workspace) == 1
    settled(workspace)  # the new file is read once more while it is too recent to trust
    shutil.rmtree(workspace / "specs/dadjoke")
    assert check(workspace) == 1
    from normcli.service import Service

    service = Service.open(workspace)
    assert {spec.domain for spec in service.spec_list().specs} == {"meteo", "later"}


def test_a_referenced_file_that_was_missing_is_read_when_it_appears(workspace: Path) -> None:
    loads = workspace / "specs/meteo/schemas/loads.yaml"
    kept = loads.read_bytes()
    loads.unlink()
    assert check(workspace) == 1
    from normcli.service import Service

    assert any(problem["kind"] == "bad_ref" for problem in Service.open(workspace).check().specs[1].problems)
    loads.write_bytes(kept)
    assert check(workspace) == 1


def test_a_file_written_in_the_tick_it_is_read_is_read_again_at_the_next_check(workspace: Path) -> None:
    from normcli.specs.files import RACY, stamp_before_read

    loads = workspace / "specs/meteo/schemas/loads.yaml"
    loads.write_bytes(loads.read_bytes() + b"\n")
    stamp, size = stamp_before_read(loads)
    assert (stamp, size) == (RACY, loads.stat().st_size), "a file written this instant cannot vouch for a later write in its tick"
    time.sleep(0.15)
    assert stamp_before_read(loads)[0] != RACY
    copied = workspace / "specs/meteo/copy.yaml"
    shutil.copy2(loads, copied)  # its content time is the original's: no later write can share it
    assert stamp_before_read(copied)[0] != RACY


def test_a_call_reads_the_spec_stamps_through_its_own_connection_and_still_sees_an_edit(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import normcli.store.spec_refresh as spec_refresh
    from normcli.discovery.session import SpecSession

    opened: list[str] = []
    real_connect = spec_refresh.connect

    def counted(*args: object, **kwargs: object) -> object:
        opened.append(str(args[0]))
        return real_connect(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(spec_refresh, "connect", counted)
    monkeypatch.setattr(spec_refresh, "_LAST", {})  # as in a new process
    assert [spec.domain for spec in SpecSession.open(workspace).spec_list().specs] == ["dadjoke", "meteo"]
    assert opened == []  # the session's connection read what the index holds of the specs
    root_file = workspace / "specs/meteo/openapi.yaml"
    text = root_file.read_text(encoding="utf-8")
    root_file.write_text(text.replace("/snow-load/{siteId}", "/snow-loads/{siteId}", 1), encoding="utf-8")  # in place
    monkeypatch.setattr(spec_refresh, "_LAST", {})
    session = SpecSession.open(workspace)
    spec = next(spec for spec in session.spec_list().specs if spec.domain == "meteo")
    paths = {
        method.path
        for collection in session.spec_by_id(spec.id).collections
        for tag in session.collection_by_id(collection.id).tags
        for method in session.endpoint_by_tag(tag.id).methods
    }
    assert "/snow-loads/{siteId}" in paths and "/snow-load/{siteId}" not in paths


def test_a_workspace_without_specs_skips_the_spec_check_and_still_sees_specs_arrive_and_go(tmp_path: Path) -> None:
    import subprocess
    import sys

    from normcli.discovery.session import SpecSession
    from normcli.service import Service

    root = tmp_path / "norms-only"
    shutil.copytree(SAMPLE, root, ignore=shutil.ignore_patterns(".normcli", "specs"))
    assert Service.open(root).info().norms and SpecSession.open(root).spec_list().specs == ()
    # A read in a new process: no spec folder and none indexed, so the spec modules are not even loaded.
    script = (
        "import sys\nfrom normcli.cli.fast import answer\n"
        f"assert answer(['--workspace', {str(root)!r}, 'toc', 'SIA 261', '--json']) == 0\n"
        "sys.stderr.write(' '.join(m for m in sys.modules if m.startswith(('normcli.store.spec_refresh', 'normcli.specs'))))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    shutil.copytree(SAMPLE / "specs" / "meteo", root / "specs" / "meteo")
    assert [spec.domain for spec in SpecSession.open(root).spec_list().specs] == ["meteo"]
    shutil.rmtree(root / "specs")
    assert SpecSession.open(root).spec_list().specs == ()
    assert Service.open(root).spec_list().specs == ()


def test_a_fingerprint_is_the_same_text_whether_the_folder_is_opened_or_not(tmp_path: Path) -> None:
    from normcli.specs.files import MISSING, fingerprint, stamp_of

    (tmp_path / "schemas").mkdir()
    for name in ("openapi.yaml", "schemas/pet.yaml", "schemas/tag.yaml"):
        (tmp_path / name).write_text(f"# {name}\n", encoding="utf-8")
    each = {name: stamp_of(tmp_path / name) for name in ("openapi.yaml", "schemas/pet.yaml", "schemas/tag.yaml", "gone.yaml")}
    assert each["gone.yaml"] == MISSING and MISSING not in (each["openapi.yaml"], each["schemas/pet.yaml"])
    # One or two files are stat'ed by path, more through the open folder: the same stamps either way.
    for names in (["openapi.yaml"], ["openapi.yaml", "gone.yaml"], ["openapi.yaml", "schemas/pet.yaml", "schemas/tag.yaml"], [*each]):
        assert fingerprint(tmp_path, names) == " ".join(each[name] for name in names), names
    assert fingerprint(tmp_path / "nowhere", ["a.yaml"]) == fingerprint(tmp_path / "nowhere", ["a.yaml", "b", "c"]).split(" ")[0] == MISSING


# -- which files each answer depends on (docs/specs.md) -------------------------------------------
#
# A listing or a search checks only the files the listing walk read; an endpoint those and the files its
# page shows. The test below is the argument's check: after each kind of edit, every call answers from an
# index made before the edit exactly what it answers from an index built afresh, and the edits that only
# an endpoint's page can show cost the listings no read.

SHOP = {
    "openapi.yaml": """openapi: 3.0.3
info: {title: Shop, version: "1"}
tags:
  - name: items
    description: What the shop sells
paths:
  /items/{itemId}:
    $ref: paths/item.yaml
  /items:
    get:
      summary: List the items
      operationId: listItems
      tags: [items]
      responses:
        '200': {description: the items}
""",
    "paths/item.yaml": """get:
  summary: Read an item
  operationId: getItem
  tags: [items]
  parameters:
    - $ref: '../parameters/item.yaml#/itemId'
  responses:
    '200':
      $ref: '../responses/item.yaml'
  x-codeSamples:
    - $ref: '../samples/get_item.yaml'
""",
    "parameters/item.yaml": """itemId:
  name: itemId
  in: path
  required: true
  schema: {type: string}
""",
    "responses/item.yaml": """description: The item
content:
  application/json:
    schema:
      $ref: '../schemas/item.yaml'
    examples:
      first:
        $ref: '../examples/item.yaml'
""",
    "schemas/item.yaml": """type: object
properties:
  colour: {type: string}
""",
    "examples/item.yaml": """value: {colour: red}
""",
    "samples/get_item.yaml": """lang: shell
source: curl https://shop.example/items/1
""",
}

# (file, old text, new text, the narrowest check that must see it: the listings', search's, or only the page's)
SHOP_EDITS = [
    ("samples/get_item.yaml", "curl https", "wget https", "page"),
    ("examples/item.yaml", "red", "blue", "page"),
    ("schemas/item.yaml", "colour", "flavour", "page"),  # a property's name is shown by the page, not searched
    ("responses/item.yaml", "The item", "One item", "search"),  # read for the names search finds (its schema's)
    ("responses/item.yaml", "schemas/item.yaml", "schemas/gadget.yaml", "search"),  # a schema's name is searched
    ("parameters/item.yaml", "name: itemId", "name: sku", "search"),  # a parameter's name is searched
    ("paths/item.yaml", "Read an item", "Fetch an item", "listings"),
    ("openapi.yaml", "What the shop sells", "What the shop offers", "listings"),
    # The sample file becomes the operation's description: from then on search reads it.
    (
        "paths/item.yaml",
        "  operationId: getItem",
        "  operationId: getItem\n  description: {$ref: '../samples/get_item.yaml#/source'}",
        "listings",
    ),
    ("samples/get_item.yaml", "wget https", "fetch2 https", "search"),
]

SHOP_WORDS = ("item", "gadget", "sku", "fetch", "wget", "fetch2", "flavour", "blue")


def _write_shop(root: Path) -> None:
    for name, text in SHOP.items():
        path = root / "specs" / "shop" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _shop_answers(root: Path, only: str | None = None) -> dict[str, object]:
    """Every discovery answer about the shop spec (or only those of one kind), each from a new session, as separate processes would."""
    from normcli.discovery.session import SpecSession
    from normcli.specs.ids import spec_id

    spec = spec_id("shop")
    # Ids as SPEC §7 makes them, so that no call needs an earlier one's answer.
    import hashlib

    def md5(text: str) -> str:
        return hashlib.md5(text.encode()).hexdigest()

    calls: dict[str, tuple[str, tuple]] = {
        "spec_list": ("spec_list", ()),
        "spec_by_id": ("spec_by_id", (spec,)),
        "collection_by_id": ("collection_by_id", (md5("collection|shop|Shop"),)),
        "tag_by_spec": ("tag_by_spec", (spec,)),
        "tag_by_id": ("tag_by_id", (md5("tag|shop|items"),)),
        "endpoint_by_tag": ("endpoint_by_tag", (md5("tag|shop|items"),)),
        "endpoint_by_id": ("endpoint_by_id", (md5("method|shop|GET|/items/{itemId}"),)),
        "endpoint_named": ("endpoint_named", ("shop", "GET /items/{itemId}")),
        "other_endpoint": ("endpoint_by_id", (md5("method|shop|GET|/items"),)),
        **{f"search {word}": ("search_specs", (word,)) for word in SHOP_WORDS},
    }
    found: dict[str, object] = {}
    for name, (operation, args) in calls.items():
        if only is not None and name != only:
            continue
        with SpecSession.open(root) as session:
            found[name] = getattr(session, operation)(*args).to_json()
    return found


def test_each_call_answers_after_each_kind_of_edit_as_a_fresh_index_would(tmp_path: Path) -> None:
    from normcli.store.spec_refresh import _LAST
    from normcli.workspace import index_folder

    root = tmp_path / "ws"
    (root / "norms").mkdir(parents=True)
    _write_shop(root)
    settled(root)
    index = Path(index_folder(root)) / "index.sqlite"
    before_answers = _shop_answers(root)
    assert "wget" not in str(before_answers["endpoint_by_id"]) and before_answers["search item"]["hits"]  # type: ignore[index]
    for file, old, new, seen_by in SHOP_EDITS:
        settled(root)
        kept = index.read_bytes()  # the index as it was before the edit
        _same_place_edit(root / "specs" / "shop" / file, old, new)
        time.sleep(0.15)  # not too recent to trust: a scoped check must decide by the stamps alone
        # What each call answers from an index built afresh...
        shutil.rmtree(index.parent)
        _LAST.clear()
        fresh = _shop_answers(root)
        # ...and from the index made before the edit, each call on its own.
        for name in fresh:
            index.write_bytes(kept)
            _LAST.clear()
            assert _shop_answers(root, only=name) == {name: fresh[name]}, f"{name} after an edit of {file} ({old} → {new})"
        # The checks that cannot miss it read the spec again; the narrower ones cost no read.
        for scope, due in (("listings", seen_by == "listings"), ("search", seen_by != "page"), ("all", True)):
            index.write_bytes(kept)
            _LAST.clear()
            assert check(root, scope) == int(due), f"an edit of {file} ({old} → {new}) and a check of the files of {scope}"
    after = _shop_answers(root)
    assert "fetch2" in str(after["endpoint_by_id"]) and "blue" in str(after["endpoint_by_id"])
    assert [hit["path"] for hit in after["search fetch2"]["hits"]] == ["/items/{itemId}"]  # type: ignore[index]  # by its description now


def _same_place_edit(path: Path, old: str, new: str) -> None:
    """Edit a file in place (its inode kept, its folder untouched), as VS Code or `>>` save."""
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    with open(path, "r+", encoding="utf-8") as handle:
        handle.write(text.replace(old, new, 1))
        handle.truncate()


def test_a_long_running_reader_sees_a_page_file_change_and_batch_checks_every_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import hashlib

    import normcli.store.spec_refresh as spec_refresh
    from normcli.service import Service

    root = tmp_path / "ws"
    (root / "norms").mkdir(parents=True)
    _write_shop(root)
    settled(root)
    scopes: list[str] = []
    real = spec_refresh.refresh_specs

    def recorded(*args: object, **kwargs: object) -> int:
        scopes.append(str(args[4] if len(args) > 4 else kwargs.get("scope", "all")))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(spec_refresh, "refresh_specs", recorded)
    method = hashlib.md5(b"method|shop|GET|/items/{itemId}").hexdigest()
    service = Service.open(root)  # as the MCP server or the browser hold it
    assert "curl https" in str(service.endpoint_by_id(method).method["codeSamples"])
    service.spec_list()
    service.search_specs("item")
    assert scopes == ["listings", "listings", "search"]
    _same_place_edit(root / "specs/shop/samples/get_item.yaml", "curl https", "wget https")
    time.sleep(0.15)
    assert [spec.domain for spec in service.spec_list().specs] == ["shop"]
    assert "wget https" in str(service.endpoint_by_id(method).method["codeSamples"]), "its page checks its own files"
    assert scopes[-2:] == ["listings", "all"], "found changed, so checked again in full"
    service.check()
    assert scopes[-1] == "all"
    service.recheck_after = 1.0  # as batch: the next requests trust this check for a second, whatever they read
    service.spec_list()
    assert scopes[-1] == "all"
    service.close()


def test_at_the_target_limit_the_listings_and_search_do_not_depend_on_the_other_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The targets the listings and search read are resolved first, so that a file they do not read (here a code
    sample naming many more targets) cannot take theirs past the limit: their check need not stat it."""
    import normcli.specs.graph as graph
    from normcli.specs.read import read_spec

    # The root, the path item, the parameter, the response and the description: what the listings and search read.
    monkeypatch.setattr(graph, "MAX_TARGETS", 5)

    def read(extra: int) -> tuple[list[tuple], set[str]]:
        root = tmp_path / f"extra{extra}"
        _write_shop(root)
        folder = root / "specs/shop"
        _same_place_edit(
            folder / "paths/item.yaml", "  x-codeSamples:", "  description: {$ref: '../texts/item.yaml#/text'}\n  x-codeSamples:"
        )
        (folder / "texts").mkdir()
        (folder / "texts/item.yaml").write_text("text: One item of the shop, with its colour\n", encoding="utf-8")
        sample = folder / "samples/get_item.yaml"
        sample.write_text(sample.read_text(encoding="utf-8") + "".join(f"x-more{n}: {{$ref: 'more{n}.yaml'}}\n" for n in range(extra)))
        for n in range(extra):
            (folder / f"samples/more{n}.yaml").write_text(f"n: {n}\n", encoding="utf-8")
        spec = read_spec(folder, "shop", "openapi.yaml", "specs/shop")
        seen = [(m.verb, m.path, m.summary, m.tags, m.description, m.search_names) for m in spec.methods]
        return seen, {problem.kind for problem in spec.problems}

    plain, _ = read(0)
    crowded, problems = read(12)
    assert "too_large" in problems
    assert crowded == plain
    item = next(row for row in plain if row[1] == "/items/{itemId}")
    assert item[4] == "One item of the shop, with its colour", "the description was read within the limit"
