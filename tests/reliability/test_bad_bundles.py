"""Bad bundles: each gives a precise `check` problem (file, line, reason) and the rest of the workspace stays readable."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from normcli.service import Service
from tests.reliability.support import good_workspace, normcli, write_file

FM = '---\ncode: BAD 1\nedition: "2020"\ntitle: Bad\nlanguage: fr\n---\n'
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)


@dataclass
class Case:
    """One bad bundle: how to write it, and the problem `check` must report."""

    name: str
    write: Callable[[Path], Path]
    kind: str
    line: int
    reason: str
    readable: bool = True


def text(content: str | bytes) -> Callable[[Path], Path]:
    return lambda root: write_file(root, "bad-1", "2020", content)


def with_figure(link: str, setup: Callable[[Path, Path], None] | None = None) -> Callable[[Path], Path]:
    def write(root: Path) -> Path:
        file = write_file(
            root, "bad-1", "2020", FM + f"# 1 Objet\nTexte assez long pour ne pas être maigre du tout.\n![Figure 1 – Plan]({link})\n"
        )
        if setup:
            setup(root, file.parent)
        return file

    return write


def outside_file(root: Path, folder: Path) -> None:
    (root.parent / "secret.png").write_bytes(PNG)


def link_out(root: Path, folder: Path) -> None:
    outside_file(root, folder)
    (folder / "figures").mkdir()
    (folder / "figures" / "link.png").symlink_to(root.parent / "secret.png")


def bundle_symlink_out(root: Path) -> Path:
    outside = root.parent / "outside.md"
    outside.write_text(FM.replace("BAD 1", "SECRET 1") + "# 1 Secret\nDo not read me: zorglub.\n", encoding="utf-8")
    folder = root / "norms" / "bad-1" / "2020"
    folder.mkdir(parents=True)
    (folder / "norm.md").symlink_to(outside)
    return folder / "norm.md"


def edition_folder_symlink_out(root: Path) -> Path:
    outside = root.parent / "elsewhere"
    outside.mkdir()
    (outside / "norm.md").write_text(FM.replace("BAD 1", "SECRET 1") + "# 1 Secret\nDo not read me: zorglub.\n", encoding="utf-8")
    (root / "norms" / "bad-1").mkdir(parents=True)
    (root / "norms" / "bad-1" / "2020").symlink_to(outside)
    return root / "norms" / "bad-1" / "2020" / "norm.md"


CASES = [
    Case("no front matter", text("# 1 Objet\nTexte.\n"), "front_matter", 1, "no front matter", readable=False),
    Case("front matter never closed", text("---\ncode: BAD 1\n# 1 Objet\n"), "front_matter", 1, "not closed", readable=False),
    Case("front matter without code", text("---\ntitle: x\n---\n# 1 Objet\n"), "front_matter", 1, "no 'code'", readable=False),
    Case("empty front matter", text("---\n---\n# 1 Objet\n"), "front_matter", 1, "no 'code'", readable=False),
    Case("empty code", text("---\ntitle: x\ncode:\n---\n# 1 Objet\n"), "front_matter", 3, "no 'code'", readable=False),
    Case(
        "front matter line without colon",
        text(FM.replace("title: Bad\n", "title Bad\n") + "# 1 A\nx\n"),
        "front_matter",
        4,
        "not 'key: value'",
    ),
    Case("published is not a boolean", text(FM[:-4] + "published: maybe\n---\n# 1 A\nx\n"), "front_matter", 6, "not true or false"),
    Case("demo is a number", text(FM[:-4] + "demo: 2\n---\n# 1 A\nx\n"), "front_matter", 6, "'demo: 2' is not true or false"),
    Case("unknown language", text(FM.replace("language: fr", "language: klingon") + "# 1 A\nx\n"), "front_matter", 5, "not one of"),
    Case("no edition", text(FM.replace('edition: "2020"\n', "") + "# 1 A\nx\n"), "front_matter", 1, "no 'edition'"),
    Case("duplicate path", text(FM + "# 1 A\nx\n# 1 A again\ny\n"), "duplicate_path", 9, "duplicate path '1' (first at line 7)"),
    Case("heading out of order", text(FM + "# 1 A\nx\n# 3 C\ny\n# 2 B\nz\n"), "heading_order", 11, "'2' follows '3'"),
    Case("subclause before its clause", text(FM + "## 4.2 Early\nx\n# 4 Four\ny\n"), "heading_order", 7, "'4.2' comes before"),
    Case("numbering gap", text(FM + "# 1 A\nx\n# 3 C\ny\n"), "numbering_gap", 9, "'3' follows number 1"),
    Case("invalid UTF-8", text(FM.encode() + b"# 1 A\nbad \xff\xfe bytes\n"), "encoding", 8, "invalid UTF-8"),
    Case("empty file", text(b""), "front_matter", 1, "no front matter", readable=False),
    Case(
        "terminal escape sequences",
        text(FM + "# 1 A\nclear \x1b[2J\x1b]0;title\x07 bell\n"),
        "encoding",
        8,
        "control characters (first U+001B)",
    ),
    Case("only front matter", text(FM), "empty", 7, "no headings"),
    Case("text before the first heading", text(FM + "stray text\n# 1 A\nx\n"), "preamble", 7, "before the first heading"),
    Case("page marker not a number", text(FM + "# 1 A\n<!-- page vii -->\nx\n"), "page", 8, "'vii' is not a number"),
    Case("figure link with ..", with_figure("../../../../secret.png", outside_file), "figure", 9, "outside the bundle folder"),
    Case("figure with an absolute path", with_figure("/etc/passwd"), "figure", 9, "absolute path"),
    Case("figure that is a URL", with_figure("https://example.com/x.png"), "figure", 9, "is a URL"),
    Case("figure symlink pointing out", with_figure("figures/link.png", link_out), "figure", 9, "outside the bundle folder"),
    Case("figure file missing", with_figure("figures/none.png"), "figure", 9, "missing"),
    Case("bundle symlink out of the workspace", bundle_symlink_out, "outside", 1, "outside the workspace", readable=False),
    Case("edition folder symlink out of the workspace", edition_folder_symlink_out, "outside", 1, "outside the workspace", readable=False),
]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_a_bad_bundle_is_reported_precisely_and_the_rest_stays_readable(tmp_path: Path, case: Case) -> None:
    root = good_workspace(tmp_path / "ws")
    case.write(root)
    with Service.open(root) as service:
        result = service.check()
        bad = next(bundle for bundle in result.bundles if bundle.file == "norms/bad-1/2020/norm.md")
        assert bad.readable is case.readable
        matching = [problem for problem in bad.problems if problem["kind"] == case.kind and case.reason in problem["reason"]]
        assert matching, f"no {case.kind} problem with {case.reason!r}; got {bad.problems}"
        assert matching[0]["line"] == case.line and matching[0]["file"] == "norms/bad-1/2020/norm.md"
        assert service.toc("GOOD 1").tree[0].path == "1"
        # `norms` says which bundle file is missing from it and why, as `check` does (SPEC §2)
        said = [(problem["file"], problem["line"], problem["kind"]) for problem in service.norms().unreadable]
        assert said == ([] if case.readable else [("norms/bad-1/2020/norm.md", case.line, case.kind)])
        assert all(case.reason in problem["reason"] for problem in service.norms().unreadable)
        assert service.search("GOOD 1", "neige").hits
        assert all("zorglub" not in hit.snippet for norm in service.corpus("zorglub").norms for hit in norm.hits)


def test_check_prints_file_line_and_reason_and_exits_3_for_an_unreadable_bundle(tmp_path: Path) -> None:
    root = good_workspace(tmp_path / "ws")
    write_file(root, "bad-1", "2020", "# 1 No front matter\n")
    write_file(root, "bad-2", "2020", FM.replace("BAD 1", "BAD 2") + "# 1 A\nx\n# 1 A\ny\n")
    done = normcli("--workspace", str(root), "check")
    assert done.returncode == 3
    assert "norms/bad-1/2020/norm.md:1: error: no front matter" in done.stdout + done.stderr
    assert "norms/bad-2/2020/norm.md:9: warning: duplicate path '1'" in done.stdout + done.stderr
    as_json = normcli("--workspace", str(root), "check", "--json")
    assert as_json.returncode == 3 and json.loads(as_json.stdout)["bundles"]


def test_norms_json_names_each_unreadable_bundle_and_still_answers(tmp_path: Path) -> None:
    from normcli.mcp.text import to_markdown

    root = good_workspace(tmp_path / "ws")
    write_file(root, "bad-1", "2020", "# 1 No front matter\n")
    done = normcli("--workspace", str(root), "norms", "--json")
    answer = json.loads(done.stdout)
    assert done.returncode == 0 and [norm["code"] for norm in answer["norms"]] == ["GOOD 1"]
    assert answer["unreadable"] == [
        {
            "file": "norms/bad-1/2020/norm.md",
            "line": 1,
            "severity": "error",
            "kind": "front_matter",
            "reason": answer["unreadable"][0]["reason"],
        }
    ]
    assert answer["unreadable"][0]["reason"].startswith("no front matter")
    with Service.open(root) as service:
        assert "`norms/bad-1/2020/norm.md` line 1: no front matter" in to_markdown(service.norms())
    (root / "norms" / "bad-1" / "2020" / "norm.md").unlink()
    assert json.loads(normcli("--workspace", str(root), "norms", "--json").stdout)["unreadable"] == []


def test_escape_sequences_in_a_bundle_never_reach_the_terminal(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    write_file(
        root, "esc-1", "2020", "---\ncode: ESC 1\n\x1b[2Jnot a field\n---\n# 1 A \x1b[31mred\nclear \x1b[2J\x1b]0;title\x07 bell \x9b1m\n"
    )
    for args in (["check"], ["section", "ESC 1", "1"], ["toc", "ESC 1"], ["search", "ESC 1", "clear"], ["section", "ESC 1", "1", "--json"]):
        done = normcli("--workspace", str(root), *args)
        assert "\x1b" not in done.stdout + done.stderr and "\x07" not in done.stdout and "\x9b" not in done.stdout, args
    assert "clear [2J]0;title bell 1m" in Service.open(root).section("ESC 1", "1").content


def test_wrong_types_in_the_front_matter_are_read_as_meant(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    write_file(
        root,
        "t-1",
        "2020",
        "---\ncode: 261\nedition: 2020\npublished: \"no\"\ndemo: 'yes'\nrequires: SIA 260\nlanguage: FR\n---\n# 1 A\nx\n",
    )
    service = Service.open(root)
    norm = service.norms().norms[0]
    assert (norm.code, norm.editions[0].edition, norm.editions[0].published, norm.demo, norm.requires) == (
        "261",
        "2020",
        False,
        True,
        ("SIA 260",),
    )
    assert service.toc("261", edition="2020").tree[0].path == "1"


def test_bom_crlf_and_lone_cr_read_like_plain_lf(tmp_path: Path) -> None:
    plain = FM + "# 1 Objet\nLa neige.\n## 1.1 Détail\nTexte.\n"
    root = tmp_path / "ws"
    write_file(root, "lf", "2020", plain.replace("BAD 1", "LF 1"))
    write_file(root, "crlf", "2020", b"\xef\xbb\xbf" + plain.replace("BAD 1", "CRLF 1").replace("\n", "\r\n").encode())
    write_file(root, "cr", "2020", plain.replace("BAD 1", "CR 1").replace("\n", "\r").encode())
    service = Service.open(root)
    answers = [service.section(code, "1.1").content for code in ("LF 1", "CRLF 1", "CR 1")]
    assert answers == ["Texte."] * 3
    assert not [
        problem for bundle in service.check().bundles for problem in bundle.problems if problem["kind"] in ("front_matter", "encoding")
    ]


def test_a_bundle_that_disappears_or_cannot_be_read_is_reported(tmp_path: Path) -> None:
    root = good_workspace(tmp_path / "ws")
    file = write_file(root, "bad-1", "2020", FM + "# 1 A\nx\n")
    service = Service.open(root)
    assert service.toc("BAD 1").tree
    file.unlink()
    file.mkdir()  # a folder where the file was: stat works, reading fails
    os.utime(root / "norms" / "bad-1" / "2020")
    assert service.toc("GOOD 1").tree
    assert not any(norm.code == "BAD 1" for norm in service.norms().norms)
    assert [problem["file"] for problem in service.norms().unreadable] == ["norms/bad-1/2020/norm.md"]


@pytest.mark.parametrize(
    "settings",
    [
        "name = " + "{a = " * 5000 + "1" + "}" * 5000,
        "[mcp]\nread_budget = " + "[" * 5000 + "]" * 5000,
        'name = "x"\nlanguage = 5\nmethodology = [1, 2]\n[mcp]\nread_budget = "lots"\n',
        "\xff\xfe not toml",
        "name = 'unterminated",
    ],
    ids=["nested 5000 deep", "mcp table nested 5000 deep", "wrong types", "not UTF-8", "not TOML"],
)
def test_a_broken_normcli_toml_is_reported_and_the_workspace_reads(tmp_path: Path, settings: str) -> None:
    from normcli.mcp.guard import read_mcp_settings

    root = good_workspace(tmp_path / "ws")
    (root / "normcli.toml").write_bytes(settings.encode("utf-8", "surrogateescape") if "\xff" not in settings else b"\xff\xfe not toml")
    service = Service.open(root)
    assert service.toc("GOOD 1").tree and service.methodology().text
    read_mcp_settings(root)  # defaults, with the reason, never an exception
    done = normcli("--workspace", str(root), "info", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["norms"] == 1
