"""The read operations on the sample workspace, as every frontend sees them."""

from __future__ import annotations

import hashlib
import json
import math
import re
from pathlib import Path

import pytest

from normcli.errors import InvalidArgument, NotFound
from normcli.fold import fold
from normcli.service import Service
from normcli.windows import header_for, join_windows, window
from tests.conftest import write_bundle


def walk(nodes):
    for node in nodes:
        yield node
        yield from walk(node.children)


def test_norms_lists_codes_editions_languages_and_drafts(service: Service) -> None:
    norms = {norm.code: norm for norm in service.norms().norms}
    assert set(norms) == {"SIA 261", "SIA 260", "VSS 640 100", "EN 1991-1-3"}
    sia = norms["SIA 261"]
    editions = {edition.edition: edition for edition in sia.editions}
    assert list(editions) == ["2026", "2020", "2014"]
    assert editions["2026"].published is False and editions["2020"].published is True
    assert set(editions["2020"].languages) == {"fr", "de"}
    assert sia.year == 2020 and sia.demo is True
    assert all(norm.demo for norm in norms.values())


def test_reads_default_to_newest_published_edition_and_preferred_language(service: Service) -> None:
    toc = service.toc("sia261")
    assert (toc.edition.code, toc.edition.edition, toc.edition.language) == ("SIA 261", "2020", "fr")
    assert service.toc("SIA-261:2014").edition.edition == "2014"
    assert service.toc("SIA 261", edition="2026").edition.edition == "2026"
    with pytest.raises(NotFound, match="no edition '1999'"):
        service.toc("SIA 261", edition="1999")
    with pytest.raises(NotFound, match="no norm 'DIN 4711'"):
        service.toc("DIN 4711")
    with pytest.raises(NotFound, match="no 'it' version"):
        service.toc("SIA 261", language="it")


def test_language_versions_share_node_ids(service: Service) -> None:
    french = {node.path: node.node_id for node in walk(service.toc("SIA 261", 6, language="fr").tree)}
    german = {node.path: node.node_id for node in walk(service.toc("SIA 261", 6, language="de").tree)}
    numbered = [path for path in french if path[0].isdigit()]
    assert len(numbered) > 40
    assert all(french[path] == german[path] for path in numbered)
    assert french["4.2.1"] == hashlib.md5(b"SIA 261|2020|4.2.1").hexdigest()
    # SPEC: MD5 of code|edition|path, so an annex spelled in each language has the id of its own spelling,
    # which adding or removing another language version cannot change.
    assert (french["Annexe A"], german["Anhang A"]) == (
        hashlib.md5(b"SIA 261|2020|Annexe A").hexdigest(),
        hashlib.md5(b"SIA 261|2020|Anhang A").hexdigest(),
    )


def test_toc_depth_limits_the_tree(service: Service) -> None:
    chapters = service.toc("SIA 261", 1).tree
    assert all(node.depth == 1 and node.children == () for node in chapters)
    deep = list(walk(service.toc("SIA 261", 6).tree))
    assert max(node.depth for node in deep) == 6
    assert all(node.page_start <= node.page_end for node in deep)
    with pytest.raises(InvalidArgument, match="maxDepth"):
        service.toc("SIA 261", 7)


def test_toc_at_depth_one_plus_each_chapter_subtree_is_the_full_tree(service: Service) -> None:
    full = [node.path for node in walk(service.toc("SIA 261", 6).tree)]
    assembled = []
    for chapter in service.toc("SIA 261", 1).tree:
        assembled += [node.path for node in walk(service.subtree("SIA 261", chapter.path).tree)]
    assert assembled == full


def test_subtree_truncates_deepest_levels_first(service: Service) -> None:
    whole = service.subtree("SIA 261", "4")
    count = len(list(walk(whole.tree)))
    assert count > 20 and not whole.tree[0].truncated
    cut = service.subtree("SIA 261", "4", max_nodes=20)
    kept = list(walk(cut.tree))
    assert len(kept) <= 20 and cut.tree[0].truncated
    assert max(node.depth for node in kept) < max(node.depth for node in walk(whole.tree))


def test_subtree_resolves_a_paragraph_number_to_its_heading(service: Service) -> None:
    result = service.subtree("SIA 261", "4.2.1.9.9")
    assert result.path == "4.2.1" and result.requested_path == "4.2.1.9.9"


def test_section_windows_reassemble_every_clause_exactly(service: Service) -> None:
    for node in walk(service.toc("SIA 261", 6).tree):
        whole = service.section("SIA 261", node.path, max_chars=40000)
        pieces, windows, offset = [], [], 0
        while True:
            part = service.section("SIA 261", node.path, max_chars=500, offset=offset)
            windows.append(part.content)
            repeated = header_for(whole.content, offset)  # a window inside a table starts with its header (SPEC §6)
            assert part.content.startswith(repeated) and len(part.content) - len(repeated) <= 500
            pieces.append(part.content[len(repeated) :])
            if part.next_offset is None:
                break
            assert part.next_offset > offset
            offset = part.next_offset
        assert "".join(pieces) == whole.content
        assert join_windows(windows) == whole.content, "the windows join back without their repeated headers"
        assert whole.total_chars == len(whole.content)


def test_long_section_window_with_offset(service: Service) -> None:
    first = service.section("SIA 261", "4.2.1", max_chars=2000)
    assert first.total_chars > 6000 and first.truncated and first.next_offset <= 2000
    assert first.content.endswith("\n\n") or first.content.endswith("\n")
    second = service.section("SIA 261", "4.2.1", max_chars=2000, offset=first.next_offset)
    assert second.offset == first.next_offset and second.content and second.content != first.content
    assert "4.2.1" in second.markdown and "SIA 261:2020" in second.markdown
    with pytest.raises(InvalidArgument, match="past the end"):
        service.section("SIA 261", "4.2.1", offset=10**9)
    with pytest.raises(InvalidArgument, match="maxChars"):
        service.section("SIA 261", "4.2.1", max_chars=100)


def test_section_carries_figures_tables_formulas_references_and_children(service: Service) -> None:
    section = service.section("SIA 261", "4.2.1")
    assert section.figures and all(figure.id.startswith("fig-") for figure in section.figures)
    assert section.tables and section.formulas and all(formula.latex for formula in section.formulas)
    targets = {(ref.target_code, ref.target_path) for ref in section.cross_refs}
    assert ("SIA 261", "4.2.3") in targets and ("SIA 260", "4.4.3") in targets
    assert section.parent_path == "4.2"
    chapter = service.section("SIA 261", "4")
    assert [child.path for child in chapter.children][:2] == ["4.1", "4.2"]


def test_unknown_path_is_not_found_naming_the_chapters(service: Service, sample_copy: Path) -> None:
    with pytest.raises(NotFound, match="no clause '99'") as raised:
        service.section("SIA 261", "99")
    text = (sample_copy / "norms/sia-261/2020/norm.fr.md").read_text(encoding="utf-8")
    chapters = []
    for heading in re.findall(r"(?m)^# (.+)$", text):  # a chapter's path: its number, `Annexe X`, or its title
        numbered = re.match(r"\d+|Annexe [A-Z]", heading)
        chapters.append(numbered.group() if numbered else heading.strip())
    assert raised.value.what == "path" and raised.value.value == "99"
    assert list(raised.value.candidates) == chapters and "Avant-propos" in chapters


def test_a_number_under_a_heading_with_subclauses_is_not_found_naming_them(service: Service, sample_copy: Path) -> None:
    # SPEC §6: 4.9.1 is not a paragraph of chapter 4's text (4 has subclauses and no 4.9).
    text = (sample_copy / "norms/sia-261/2020/norm.fr.md").read_text(encoding="utf-8")
    subclauses = re.findall(r"(?m)^## (4\.\d+) ", text)
    assert "4.9" not in subclauses
    with pytest.raises(NotFound) as raised:
        service.section("SIA 261", "4.9.1")
    assert raised.value.what == "path" and list(raised.value.candidates) == ["4", *subclauses]  # the heading above, then its subclauses
    with pytest.raises(NotFound):
        service.subtree("SIA 261", "chapitre 4.9")


def test_a_number_below_a_leaf_is_a_paragraph_of_its_text(service: Service) -> None:
    section = service.section("SIA 261", "4.2.1.3")
    assert (section.path, section.requested_path) == ("4.2.1", "4.2.1.3")
    assert service.section("SIA 261", "4.2.1").children == ()  # the heading has no subclauses


def test_an_edition_named_twice_must_agree(service: Service) -> None:
    with pytest.raises(InvalidArgument, match="names edition 2014") as raised:
        service.section("SIA 261:2014", "4.2.1", edition="2020")
    assert raised.value.param == "edition"
    assert service.section("SIA 261:2014", "4.2.1", edition="2014").edition.edition == "2014"


def test_paths_and_codes_match_forgivingly(service: Service) -> None:
    assert service.section("sia 261", "annexe a").path == "Annexe A"
    assert service.section("SIA261", "A").path == "Annexe A"
    assert service.section("SIA 261", "Anhang A").path == "Annexe A"
    assert service.section("sia-261", "4.2.1.").path == "4.2.1"


def test_search_is_case_and_accent_insensitive(service: Service) -> None:
    plain = service.search("SIA 261", "charge de neige")
    assert plain.hits and all(hit.marks for hit in plain.hits)
    for kind in ("title", "text"):
        has_phrase = ["charge de neige" in fold(hit.snippet + " " + hit.title) for hit in plain.hits if hit.kind == kind]
        assert has_phrase == sorted(has_phrase, reverse=True) and any(has_phrase)
    shouted = service.search("SIA 261", "CHARGE DE NEIGE")
    assert [hit.path for hit in shouted.hits] == [hit.path for hit in plain.hits]
    accented = service.search("SIA 261", "séisme")
    unaccented = service.search("SIA 261", "seisme")
    assert accented.hits and [hit.path for hit in accented.hits] == [hit.path for hit in unaccented.hits]
    assert all(hit.marks for hit in plain.hits if hit.kind == "text")


def test_search_puts_title_hits_first_and_respects_limit(service: Service) -> None:
    result = service.search("SIA 261", "neige", limit=5)
    assert len(result.hits) == 5
    kinds = [hit.kind for hit in result.hits]
    assert kinds == sorted(kinds, key=lambda kind: kind != "title")
    with pytest.raises(InvalidArgument):
        service.search("SIA 261", "neige", limit=51)
    with pytest.raises(InvalidArgument):
        service.search("SIA 261", "x" * 201)


def test_hostile_fts_syntax_is_just_text(service: Service) -> None:
    # Each keyword is searched as its words: the same hits as the words typed plainly.
    for keyword, plain in [("neige*", "neige"), ("NEAR(neige charge)", "near neige charge"), ("-neige", "neige"), ("^neige", "neige")]:
        assert service.search("SIA 261", keyword).hits == service.search("SIA 261", plain).hits, keyword
        assert [norm.hits for norm in service.corpus(keyword).norms] == [norm.hits for norm in service.corpus(plain).norms], keyword
    assert service.search("SIA 261", "neige*").hits  # and they find something
    for keyword in ['"', "');DROP TABLE nodes;--", "a AND b"]:
        assert service.search("SIA 261", keyword).keyword == keyword  # an answer, not an FTS5 syntax error
        assert service.corpus(keyword).keyword == keyword
    assert service.norms().norms  # the index is intact


def test_corpus_transliterates_and_groups_by_norm(service: Service) -> None:
    for keyword in ("Straße", "Strasse", "STRASSE", "strasse"):
        result = service.corpus(keyword)
        codes = [norm.code for norm in result.norms]
        assert "VSS 640 100" in codes, keyword
    assert [h.path for h in service.corpus("Straße").norms[0].hits] == [h.path for h in service.corpus("STRASSE").norms[0].hits]
    resistance = service.corpus("resistance")
    assert any("résistance" in hit.snippet.lower() or "resistance" in fold(hit.snippet) for norm in resistance.norms for hit in norm.hits)


def test_corpus_title_hits_come_before_text_hits(service: Service) -> None:
    result = service.corpus("neige", limit=40)
    kinds = [hit.kind for norm in result.norms for hit in norm.hits]
    assert "title" in kinds and "text" in kinds
    first_text = min(index for index, kind in enumerate(sorted(kinds, key=lambda k: k != "title")) if kind == "text")
    assert all(kind == "title" for kind in sorted(kinds, key=lambda k: k != "title")[:first_text])
    per_norm_order = [[hit.kind for hit in norm.hits] for norm in result.norms]
    for kinds_of_norm in per_norm_order:
        assert kinds_of_norm == sorted(kinds_of_norm, key=lambda kind: kind != "title")
    assert sum(len(norm.hits) for norm in service.corpus("neige", limit=3).norms) == 3


def test_corpus_clause_number_resolves_in_each_norm(service: Service) -> None:
    result = service.corpus("4.2.1")
    path_hits = {(norm.code, hit.path) for norm in result.norms for hit in norm.hits if hit.kind == "path"}
    assert ("SIA 261", "4.2.1") in path_hits
    assert all(path == "4.2.1" for _, path in path_hits)


def test_corpus_reads_only_default_editions(service: Service) -> None:
    editions = {norm.code: norm.edition for norm in service.corpus("neige", limit=40).norms}
    assert editions["SIA 261"] == "2020"  # not the 2014 edition, not the 2026 draft, though both speak of snow
    defaults = {norm.code: next(e.edition for e in norm.editions if e.published) for norm in service.norms().norms}
    assert all(editions[code] == defaults[code] for code in editions)


def test_xrefs_resolvable_first_with_titles(service: Service) -> None:
    result = service.xrefs("SIA 261", "4.2.1")
    flags = [ref.resolvable for ref in result.cross_refs]
    assert flags == sorted(flags, reverse=True)
    sia260 = next(ref for ref in result.cross_refs if ref.target_code == "SIA 260" and ref.target_path == "4.4.3")
    assert sia260.resolvable and sia260.target_title and not sia260.internal
    assert any(ref.type == "explicit" for ref in result.cross_refs)
    kinds = {ref.target_kind for ref in result.cross_refs}
    assert {"clause", "figure"} <= kinds


def test_xrefs_to_norms_not_held_are_not_resolvable(service: Service) -> None:
    refs = [ref for node in walk(service.toc("EN 1991-1-3", 6).tree) for ref in service.xrefs("EN 1991-1-3", node.path).cross_refs]
    en1990 = [ref for ref in refs if ref.target_code == "EN 1990"]
    assert en1990 and not any(ref.resolvable for ref in en1990)


def test_figure_bytes_are_served_from_inside_the_bundle(service: Service) -> None:
    section = service.section("SIA 261", "4.2.1")
    figure = service.figure("SIA 261", section.figures[0].id)
    assert figure.data.startswith(b"\x89PNG") and figure.mime_type == "image/png"
    assert service.figure("SIA 261", figure.figure_number).figure_id == figure.figure_id
    with pytest.raises(NotFound, match="no figure"):
        service.figure("SIA 261", "fig-999")


def test_info_counts_what_the_workspace_holds(service: Service, sample_copy: Path) -> None:
    info = service.info()
    assert info.workspace == str(sample_copy) and info.norms == 4 and info.editions == 6
    assert info.sections >= 150 and info.figures >= 8 and info.index.fresh
    assert Path(info.index.path).is_file()


def test_methodology_is_built_for_the_workspace(service: Service) -> None:
    text = service.methodology().text
    assert text.splitlines()[-1] == "methodology: v2"
    for code in ("SIA 261", "SIA 260", "VSS 640 100", "EN 1991-1-3"):
        assert f"| {code} |" in text
    assert "[SIA 261:2020, 4.2.1, p. 22]" in text and "fictional" in text and "normEdition" in text
    assert json.loads(json.dumps(service.methodology().to_json())) == {"version": 2, "text": text}


def test_neighbour_walks_reading_order(service: Service) -> None:
    assert service.neighbour("SIA 261", "4.2", 1).path == "4.2.1"
    assert service.neighbour("SIA 261", "4.2.1", -1).path == "4.2"


def test_window_prefers_paragraph_boundaries() -> None:
    text = "a" * 300 + "\n\n" + "b" * 300 + "\n\n" + "c" * 300
    content, next_offset = window(text, 0, 500)
    assert content == "a" * 300 + "\n\n" and next_offset == 302
    assert window(text, 302, 500)[0] == "b" * 300 + "\n\n"


def test_every_window_lists_the_references_of_the_whole_clause(service: Service) -> None:
    """SPEC §6: the references of the whole clause in every window; the window's text alone is `content`."""
    everything = service.xrefs("SIA 261", "4.2.1").cross_refs
    offset, windows = 0, 0
    while True:
        part = service.section("SIA 261", "4.2.1", max_chars=1500, offset=offset)
        assert part.cross_refs == everything
        assert part.children == service.section("SIA 261", "4.2.1").children
        windows += 1
        if part.next_offset is None:
            break
        offset = part.next_offset
    assert windows > 3


def test_corpus_fills_its_page_when_enough_clauses_match(service: Service) -> None:
    everything = sum(len(norm.hits) for norm in service.corpus("neige", limit=40).norms)
    assert everything > 20
    for limit in (1, 5, 20):
        assert sum(len(norm.hits) for norm in service.corpus("neige", limit=limit).norms) == limit


def test_search_with_a_clause_number_gives_the_clause_then_the_clauses_that_refer_to_it(service: Service) -> None:
    result = service.search("SIA 261", "4.2.1", limit=10)
    assert (result.hits[0].path, result.hits[0].kind) == ("4.2.1", "path")
    mentions = result.hits[1:]
    assert mentions and all(hit.kind == "text" for hit in mentions)
    for hit in mentions:
        targets = {
            ref.target_path
            for ref in service.xrefs("SIA 261", hit.path, language=hit.language).cross_refs
            if ref.target_code in (None, "SIA 261")
        }
        assert "4.2.1" in targets, hit.path


def test_title_hits_are_found_in_titles_only(service: Service) -> None:
    for result in (service.search("SIA 261", "neige", limit=50), service.corpus("neige", limit=40)):
        hits = result.hits if hasattr(result, "hits") else [hit for norm in result.norms for hit in norm.hits]
        titled = [hit for hit in hits if hit.kind == "title"]
        assert titled and all("neige" in fold(hit.title) or "schnee" in fold(hit.title) for hit in titled)
        assert any(hit.kind == "text" and "neige" not in fold(hit.title) for hit in hits)


def test_a_very_common_text_query_is_ranked_on_an_even_sample(service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    from normcli.store import queries

    index = service.index()
    every_match = index.match('"la"', 10_000)
    exact = index.match('"la"', 10)
    assert len(every_match) > 40
    monkeypatch.setattr(queries, "RANK_AT_MOST", 20)
    sampled = index.match_sampled('"la"', 10)
    assert len(sampled) == 10 and set(sampled) <= set(every_match) and sampled != exact
    assert math.gcd(*sampled) >= 2  # every n-th clause by row id
    sample = [row_id for row_id in every_match if row_id % math.gcd(*sampled) == 0]
    assert sampled == sample[:10]  # the full ranking's order, restricted to the sample
    for word in ('"actions"', '"la"', '"der"'):  # a sample never leaves the page short while clauses match
        total = len(index.match(word, 10_000))
        for page in (10, 40):
            assert len(index.match_sampled(word, page)) == min(page, total), (word, page)
    monkeypatch.setattr(queries, "RANK_AT_MOST", 100_000)
    assert index.match_sampled('"la"', 10) == exact


def test_a_number_that_names_no_clause_is_searched_as_a_word(service: Service) -> None:
    in_text = service.search("SIA 261", "260", limit=10).hits
    assert in_text and all(hit.kind == "text" and "260" in hit.snippet for hit in in_text)
    years = [hit for norm in service.corpus("1990").norms for hit in norm.hits]
    assert years and all(hit.kind == "text" and "1990" in hit.snippet for hit in years)


def test_an_annex_named_in_lower_case_or_by_its_letter_is_the_annex(service: Service) -> None:
    for keyword in ("annexe a", "Annexe A", "A"):
        hits = service.search("SIA 261", keyword, limit=10).hits
        assert (hits[0].path, hits[0].kind) == ("Annexe A", "path"), keyword
        assert any(hit.kind == "text" for hit in hits[1:]), keyword  # the clauses that refer to the annex


def test_a_clause_named_as_text_cites_it_is_found(service: Service) -> None:
    for asked in ("§ 4.2.1", "§4.2.1", "chiffre 4.2.1", "Ziffer 4.2.1", "section 4.2.1"):
        answer = service.section("SIA 261", asked)
        assert (answer.path, answer.requested_path) == ("4.2.1", None), asked
    assert service.section("SIA 261", "chiffre 4.2.1.9").requested_path == "chiffre 4.2.1.9"
    with pytest.raises(NotFound):
        service.section("SIA 261", "§ 99")


def test_a_section_carries_its_citation_with_the_edition_and_its_markdown_ends_with_it(service: Service) -> None:
    section = service.section("SIA 261", "4.2.1")
    assert section.citation == f"[SIA 261:2020, 4.2.1, p. {section.page_start}]"
    assert section.markdown.rstrip().endswith(section.citation)
    assert section.to_json()["section"]["citation"] == section.citation
    older = service.section("SIA 261:2014", "4.2.1")
    assert older.citation.startswith("[SIA 261:2014, 4.2.1, p. ")


def test_a_draft_is_cited_as_a_draft(service: Service, sample_copy: Path) -> None:
    draft_file = sample_copy / "norms" / "sia-261" / "2026" / "norm.md"
    assert "published: false" in draft_file.read_text(encoding="utf-8")
    first = service.toc("SIA 261:2026").tree[-1]
    section = service.section("SIA 261:2026", first.path)
    assert section.citation == f"[SIA 261:2026 (draft), {first.path}, p. {first.page_start}]"


def test_a_document_without_printed_pages_is_cited_without_a_page(tmp_path: Path) -> None:
    write_bundle(
        tmp_path,
        "rfc-9999",
        "2025",
        """
        ---
        code: RFC 9999
        edition: "2025"
        title: A fictional protocol
        language: en
        ---
        # 1 Introduction
        Text without page markers.
        ## 1.1 Scope
        More text.
    """,
    )
    with Service.open(tmp_path) as unpaged:
        section = unpaged.section("RFC 9999", "1.1")
        assert section.page_start is None and section.page_end is None
        assert section.citation == "[RFC 9999:2025, 1.1]"
        assert unpaged.toc("RFC 9999").tree[0].to_json()["pageStart"] is None


def test_an_annex_subclause_named_with_the_annex_word_is_found(service: Service, tmp_path: Path, make_bundle) -> None:
    """`Annexe A.1`, `Appendix A.2`, `Anhang B.1` name the clauses numbered `A.1`, `A.2`, `B.1` (as text cites them)."""
    for asked, expected in (("Annexe A.1", "A.1"), ("Appendix A.2", "A.2"), ("annex b.1", "B.1")):
        answer = service.section("SIA 261:2020", asked)
        assert (answer.path, answer.requested_path) == (expected, None), asked
    make_bundle(
        tmp_path,
        "doc-1",
        "1",
        """
        ---
        code: DOC 1
        edition: "1"
        title: A manual with an index
        language: en
        ---
        # 1 Scope
        See Appendix A.
        # Index
        ## A
        alpha, 3
        """,
    )
    with Service.open(tmp_path) as other, pytest.raises(NotFound):  # an index letter is no annex
        other.section("DOC 1", "Appendix A")


def test_an_annex_printed_as_its_letter_is_named_by_the_letter_or_with_any_annex_word(tmp_path: Path, make_bundle) -> None:
    """Appendices printed `A Implementation`, `B Test` (no word for them) have the paths `A` and `B`: `section` and
    `subtree` find them by the letter and by `Annex A`, `Anhang A`, `Annexe A`, `Appendix B`; a reference `Appendix A`
    in the text leads to the clause `A`."""
    make_bundle(
        tmp_path,
        "doc-2",
        "1",
        """
        ---
        code: DOC 2
        edition: "1"
        title: A package manual
        language: en
        ---
        # 1 Introduction
        See Appendix A for the code.
        # A Implementation
        ## A.1 Sourcemap
        Text.
        # B Test
        Text.
        """,
    )
    with Service.open(tmp_path) as service:
        for asked, expected in (("A", "A"), ("Annex A", "A"), ("Anhang A", "A"), ("annexe a", "A"), ("Appendix B", "B"), ("a.1", "A.1")):
            answer = service.section("DOC 2", asked)
            assert (answer.path, answer.title, answer.requested_path) == (
                expected,
                {"A": "Implementation", "B": "Test"}.get(expected, "Sourcemap"),
                None,
            ), asked
        assert [node.path for node in service.subtree("DOC 2", "Annex A").tree] == ["A"]
        assert [child.path for child in service.subtree("DOC 2", "Annex A").tree[0].children] == ["A.1"]
        refs = service.xrefs("DOC 2", "1").cross_refs
        assert [(ref.target_path, ref.resolvable) for ref in refs] == [("A", True)]


def test_an_annex_printed_as_its_letter_under_a_part_is_named_with_an_annex_word(tmp_path: Path, make_bundle) -> None:
    """Appendices set as a part's chapters (`Part III Appendices`, then `A Packages`, path `A` one level down) stand
    where annexes stand: `Annex A` names them and a reference `Appendix B` leads there; an index's letter group `A`
    under its chapter `Index` is still no annex."""
    make_bundle(
        tmp_path,
        "doc-3",
        "1",
        """
        ---
        code: DOC 3
        edition: "1"
        title: A manual in parts
        language: en
        ---
        # Basics {#Part I}
        ## 1 Introduction
        See Appendix B for the macros.
        # Appendices {#Part III}
        ## Packages {#A}
        Text.
        ## Macros {#B}
        Text.
        """,
    )
    make_bundle(
        tmp_path,
        "doc-4",
        "1",
        """
        ---
        code: DOC 4
        edition: "1"
        title: A manual in parts with an index
        language: en
        ---
        # Basics {#Part I}
        ## 1 Introduction
        See Appendix A.
        ## Index
        ### A
        alpha, 3
        """,
    )
    with Service.open(tmp_path) as service:
        part = next(node for node in service.toc("DOC 3", max_depth=2).tree if node.path == "Part III")
        assert [(child.path, child.depth) for child in part.children] == [("A", 2), ("B", 2)]
        for asked, expected in (("Annex A", "A"), ("Appendix B", "B"), ("anhang a", "A")):
            answer = service.section("DOC 3", asked)
            assert (answer.path, answer.requested_path) == (expected, None), asked
        refs = service.xrefs("DOC 3", "1").cross_refs
        assert [(ref.target_path, ref.resolvable) for ref in refs] == [("B", True)]
        with pytest.raises(NotFound):  # a letter group of an index, even inside a part, is no annex
            service.section("DOC 4", "Appendix A")


def test_a_heading_named_like_a_table_is_read_as_that_clause(tmp_path: Path, make_bundle) -> None:
    """A clause whose printed path is `Table 2` (a manual of font tables) is read by that path; `tab-2` still
    opens the clause holding the table numbered 2 and says so in `requestedPath` (SPEC §6)."""
    make_bundle(
        tmp_path,
        "doc-1",
        "1",
        """
        ---
        code: DOC 1
        edition: "1"
        title: Font tables
        language: en
        ---
        # 3 Layouts
        The layouts follow.

        Table 2: Glyphs of the upright face
        | slot | glyph |
        |---|---|
        | 0 | alpha |
        # Table 2
        The layout of the upright face, as a clause of its own.
        """,
    )
    with Service.open(tmp_path) as service:
        heading = service.section("DOC 1", "Table 2")
        holder = service.section("DOC 1", "tab-2")
    assert (heading.path, heading.requested_path) == ("Table 2", None)
    assert (holder.path, holder.requested_path) == ("3", "tab-2")


def test_a_figure_id_may_use_a_hyphen_for_a_dot_when_that_names_one_figure(tmp_path: Path, make_bundle) -> None:
    """`fig-2-1` (the way a file name or a reader writes it) names `fig-2.1`, not `fig-21`, which keeps its own id."""
    figures = {"2.1": "Raster order", "21": "Coded order", "2.2": "Super blocks", "2.2.1": "Hilbert curve"}
    front = ["---", "code: DOC 4", 'edition: "1"', "title: Dotted figures", "language: en", "---", "# 2 Blocks"]
    images = [f"![Figure {number} – {caption}](figures/fig-{number}.png)" for number, caption in figures.items()]
    make_bundle(tmp_path, "doc-4", "1", "\n".join([*front, *images, ""]))
    folder = tmp_path / "norms" / "doc-4" / "1" / "figures"
    folder.mkdir()
    for number in figures:
        (folder / f"fig-{number}.png").write_bytes(b"\x89PNG\r\n\x1a\n" + number.encode())
    with Service.open(tmp_path) as other:
        ids = [figure.id for figure in other.section("DOC 4", "2").figures]
        assert "fig-2.1" in ids and "fig-21" in ids
        assert other.figure("DOC 4", "fig-2-1").figure_id == "fig-2.1"
        assert other.figure("DOC 4", "fig-21").figure_id == "fig-21"
        assert other.figure("DOC 4", "2-1").figure_id == "fig-2.1"
        assert other.figure("DOC 4", "fig-2-2-1").figure_id == "fig-2.2.1"
        with pytest.raises(NotFound):
            other.figure("DOC 4", "fig-2-3")
