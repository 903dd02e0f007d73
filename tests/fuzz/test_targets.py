"""The fuzz targets replay their seeds and every input that once found a bug, and run briefly under hypothesis."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from tests.fuzz.strategies import STRATEGIES
from tests.fuzz.targets import TARGETS, bundle_target, query_target

SEEDS = {
    "bundle": [
        b"",
        b"---\ncode: FUZZ 1\n---\n# 1 A\nx\n",
        b"\xef\xbb\xbf---\r\ncode: X\r\n---\r\n# 1 A\r\n",
        b"---\ncode: X\n---\n" + "".join(f"# {'.'.join(['1'] * (n + 1))} T\n" for n in range(300)).encode(),
        b"---\ncode: X\n---\n# 1 A\n![Figure 1](../../../../etc/passwd)\n![Fig 2](/etc/passwd)\n",
        b"---\ncode: X\n---\n# 1 A\n$$\nx\n",
        b"---\ncode: X\n---\n# 1 A\n```\n# 2 B\n",
    ],
    "query": [b"", b"\x00" * 40, b"\x05\x03\x02\x01" + b'NEAR(\0*\0"\0^', bytes(range(256))],
}
# Inputs that showed bugs (the commit that fixed each says which), replayed for ever.
REGRESSIONS = {
    "bundle": [
        # found by reading: a 5,000-digit clause number made int() raise in the numbering check
        b"---\ncode: X\n---\n# 1 A\n# " + b"9" * 5000 + b" B\n",
        # found by the fuzzer: an empty front matter made an unreadable bundle without a reason
        b"---\r---",
        b"---\nnot a field\n---\n# 1 A\n",
        b"---\ncode:\n---\n",
    ],
    "query": [],
}


@pytest.mark.parametrize(("name", "data"), [(name, data) for name, items in {**SEEDS}.items() for data in items + REGRESSIONS[name]])
def test_seeds_and_past_findings(name: str, data: bytes) -> None:
    TARGETS[name](data)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(STRATEGIES["bundle"])
def test_bundle_target_briefly(data: bytes) -> None:
    bundle_target(data)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(STRATEGIES["query"])
def test_query_target_briefly(data: bytes) -> None:
    query_target(data)
