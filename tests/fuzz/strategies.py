"""Hypothesis strategies that make fuzz bytes shaped like bundles and queries (plain random bytes rarely are)."""

from __future__ import annotations

from hypothesis import strategies as st

FRAGMENTS = [
    "---",
    "code: FUZZ 1",
    'edition: "2020"',
    "edition: 2020",
    "language: fr",
    "language: xx",
    "published: no",
    "demo: maybe",
    "requires: [SIA 260, EN 1990",
    "- SIA 260",
    "# 1 Objet",
    "## 4.2 Neige",
    "### 4.2.1 Charge",
    "###### 1.1.1.1.1.1.1",
    "# Annexe A Informative",
    "## A.1 Détail",
    "# Avant-propos",
    "#",
    "# 99999999999999999999999 Énorme",
    "<!-- page 7 -->",
    "<!-- page vii -->",
    "![Figure 3 – Coefficient](figures/fig-3.png)",
    "![Fig. 1](../../../etc/passwd)",
    "![Bild 2](/etc/passwd)",
    "![figure](https://x/y.png)",
    "![Abbildung 4](<figures/a b.png>)",
    "Tableau 2 – Valeurs",
    "| a | b |",
    "|---|---|",
    "| 1 | 2 |",
    "$$ q_k = \\mu_i s_k \\qquad (12) $$",
    "$$",
    "```",
    "~~~",
    "voir 4.2.3, chiffre 4.2.1, annexe A, figure 3, tableau 2, SIA 260, 4.4.3, EN 1990",
    "[lien](#4.2.3) [autre](norm:SIA%20260#4.4.3) [x](norm:) [y](#)",
    "\ufeff",
    "\r",
    "",
]

bundle_bytes = st.one_of(
    st.binary(max_size=2048),
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=40)), max_size=60).map(
        lambda parts: "\n".join(parts).encode("utf-8", "surrogatepass")
    ),
    st.lists(st.sampled_from(FRAGMENTS), max_size=80).map(lambda parts: "\r\n".join(parts).encode()),
)

query_bytes = st.one_of(
    st.binary(max_size=512),
    st.lists(
        st.one_of(
            st.sampled_from(
                ['"', "*", "NEAR(", "AND", "-", "^", "OR", "NOT", ":", "(", ")", "{", "}", "4.2.1", "Annexe A", "neige", "\x1b[2J"]
            ),
            st.text(max_size=30),
            st.binary(max_size=12).map(lambda raw: raw.decode("latin-1")),
        ),
        max_size=40,
    ).map(lambda parts: "\0".join(parts).encode("utf-8", "surrogatepass")),
)

STRATEGIES = {"bundle": bundle_bytes, "query": query_bytes}
