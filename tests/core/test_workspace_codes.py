"""References to any norm the workspace holds or a bundle requires, whatever its publisher."""

from __future__ import annotations

from pathlib import Path

from normcli.service import Service
from tests.conftest import write_bundle

CITING = """
    ---
    code: SIA 999
    edition: "2024"
    title: A fictional norm that cites others
    language: fr
    requires: [Werkvorschrift 12]
    ---
    # 1 Bases
    Les exigences de Bauamt-Regel 7, 3.2 et le chiffre 2.1 de la Werkvorschrift 12 s'appliquent.
"""
CITED = """
    ---
    code: Bauamt-Regel 7
    edition: "2019"
    title: Eine erfundene Regel
    language: de
    ---
    # 3 Anforderungen
    ## 3.2 Lasten
    Text.
"""


def _targets(root: Path) -> dict[str, bool]:
    with Service.open(root) as service:
        return {f"{ref.target_code} {ref.target_path}": ref.resolvable for ref in service.xrefs("SIA 999", "1").cross_refs}


def test_a_required_code_is_a_reference_and_a_workspace_code_resolves(tmp_path: Path) -> None:
    write_bundle(tmp_path, "sia-999", "2024", CITING)
    write_bundle(tmp_path, "bauamt-regel-7", "2019", CITED)
    targets = _targets(tmp_path)
    assert targets["Bauamt-Regel 7 3.2"] is True
    assert targets["Werkvorschrift 12 2.1"] is False  # required, not held: found, and said to be missing


def test_a_norm_added_later_makes_earlier_bundles_cite_it(tmp_path: Path) -> None:
    write_bundle(tmp_path, "sia-999", "2024", CITING)
    assert "Bauamt-Regel 7 3.2" not in _targets(tmp_path)  # no grammar knows this publisher yet
    write_bundle(tmp_path, "bauamt-regel-7", "2019", CITED)
    assert _targets(tmp_path)["Bauamt-Regel 7 3.2"] is True
