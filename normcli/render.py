"""Text for people, shared by every frontend: the printable section document and LaTeX as Unicode."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from normcli.labels import FIGURE_LABEL, TABLE_LABEL

if TYPE_CHECKING:
    import sqlite3

    from normcli.catalogue import Version
    from normcli.results import ChildRef, FigureRef, ResolvedRef

_SYMBOLS = {
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ε",
    "varepsilon": "ε",
    "zeta": "ζ",
    "eta": "η",
    "theta": "θ",
    "vartheta": "ϑ",
    "iota": "ι",
    "kappa": "κ",
    "lambda": "λ",
    "mu": "μ",
    "nu": "ν",
    "xi": "ξ",
    "pi": "π",
    "rho": "ρ",
    "sigma": "σ",
    "tau": "τ",
    "upsilon": "υ",
    "phi": "ϕ",
    "varphi": "φ",
    "chi": "χ",
    "psi": "ψ",
    "omega": "ω",
    "Gamma": "Γ",
    "Delta": "Δ",
    "Theta": "Θ",
    "Lambda": "Λ",
    "Xi": "Ξ",
    "Pi": "Π",
    "Sigma": "Σ",
    "Phi": "Φ",
    "Psi": "Ψ",
    "Omega": "Ω",
    "cdot": "·",
    "times": "×",
    "div": "÷",
    "leq": "≤",
    "le": "≤",
    "geq": "≥",
    "ge": "≥",
    "neq": "≠",
    "ne": "≠",
    "approx": "≈",
    "pm": "±",
    "mp": "∓",
    "infty": "∞",
    "partial": "∂",
    "nabla": "∇",
    "sum": "Σ",
    "prod": "Π",
    "int": "∫",
    "to": "→",
    "rightarrow": "→",
    "leftarrow": "←",
    "Rightarrow": "⇒",
    "cdots": "⋯",
    "ldots": "…",
    "dots": "…",
    "degree": "°",
    "circ": "°",
    "sim": "∼",
    "equiv": "≡",
    "propto": "∝",
    "in": "∈",
    "forall": "∀",
    "quad": "  ",
    "qquad": "    ",
    ",": " ",
    ";": " ",
    ":": " ",
    "!": "",
    " ": " ",
    "%": "%",
    "max": "max",
    "min": "min",
    "ln": "ln",
    "log": "log",
    "exp": "exp",
    "sin": "sin",
    "cos": "cos",
    "tan": "tan",
    "lim": "lim",
    "sqrt": "√",
}
_SUPERSCRIPTS = str.maketrans("0123456789+-=()n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ")
_GROUP = r"\{((?:[^{}]|\{[^{}]*\})*)\}"
_FRAC = re.compile(r"\\[dt]?frac\s*" + _GROUP + r"\s*" + _GROUP)
_SQRT = re.compile(r"\\sqrt\s*" + _GROUP)
_TEXT = re.compile(r"\\(?:text|mathrm|mathit|mathbf|operatorname|textrm|mathsf|boldsymbol)\s*" + _GROUP)
_COMMAND = re.compile(r"\\([A-Za-z]+|[,;:! %])")
_SUPER = re.compile(r"\^\s*(?:" + _GROUP + r"|(\w))")
_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.S)
_INLINE = re.compile(r"(?<![\\$])\$([^$\n]+?)\$")


def _simple(part: str) -> bool:
    return re.fullmatch(r"[\w.·]+", part) is not None


def latex_to_unicode(latex: str) -> str:
    """A formula as readable Unicode: `q_d = \\gamma_Q \\cdot q_k` → `q_d = γ_Q · q_k`."""
    text = latex
    for _ in range(4):
        text = _TEXT.sub(lambda m: m.group(1), text)
        text = _FRAC.sub(lambda m: f"{_wrap(m.group(1))}/{_wrap(m.group(2))}", text)
        text = _SQRT.sub(lambda m: f"√{_wrap(m.group(1))}", text)
    text = re.sub(r"\\left\s*|\\right\s*", "", text)
    text = _COMMAND.sub(lambda m: _SYMBOLS.get(m.group(1), m.group(1)), text)

    def superscript(match: re.Match[str]) -> str:
        body = match.group(1) if match.group(1) is not None else match.group(2)
        if re.fullmatch(r"[0-9+\-=()n]+", body):
            return body.translate(_SUPERSCRIPTS)
        return f"^({body})" if len(body) > 1 else f"^{body}"

    text = _SUPER.sub(superscript, text)
    text = re.sub(r"_\{([^{}]*)\}", lambda m: "_" + (m.group(1) if _simple(m.group(1)) else f"({m.group(1)})"), text)
    text = text.replace("{", "").replace("}", "").replace("\\\\", " ").replace("&", "")
    return re.sub(r"[ \t]+", " ", text).strip()


def _wrap(part: str) -> str:
    part = part.strip()
    return part if _simple(part) else f"({part})"


def formulas_to_unicode(markdown: str) -> str:
    """Markdown with every `$$…$$` and `$…$` formula turned into readable Unicode, blocks kept apart."""
    markdown = _DISPLAY.sub(lambda m: f"`{latex_to_unicode(m.group(1))}`", separate_blocks(markdown))
    return _INLINE.sub(lambda m: latex_to_unicode(m.group(1)), markdown)


def _block_kind(line: str) -> str:
    stripped = line.strip()
    if stripped.startswith("|"):
        return "table"
    if stripped.startswith(("![", "$$", "#")) or _CAPTION.match(stripped):
        return f"block{id(line)}"
    return "text"


_CAPTION = re.compile(rf"^\**(?:{TABLE_LABEL}|{FIGURE_LABEL})\s*[A-Z]?\d")


def separate_blocks(markdown: str) -> str:
    """Put a blank line between a table, an image, a caption or a formula and the text around it.

    Bundles often write them on consecutive lines, which Markdown would fold into one paragraph.
    """
    out: list[str] = []
    previous = None
    for line in markdown.split("\n"):
        if not line.strip():
            previous = None
            out.append(line)
            continue
        kind = _block_kind(line)
        if previous is not None and (kind != previous or kind.startswith("block")):
            out.append("")
        out.append(line)
        previous = kind
    return "\n".join(out)


def pages(start: int, end: int) -> str:
    """`p. 22` or `pp. 22–24`."""
    return f"p. {start}" if start == end else f"pp. {start}–{end}"


def citation(code: str, path: str, page_start: int) -> str:
    """The citation form engineers write: `[SIA 261, 4.2.1, p. 22]`."""
    return f"[{code}, {path}, p. {page_start}]"


def section_markdown(
    version: Version,
    node: sqlite3.Row,
    content: str,
    offset: int,
    next_offset: int | None,
    total: int,
    figures: Sequence[FigureRef],
    refs: Sequence[ResolvedRef],
    children: Sequence[ChildRef],
) -> str:
    """The printable document of one section window: header, text, then figures, references and subclauses."""
    lines = [
        f"# {node['path']} {node['title']}" if node["title"] != node["path"] else f"# {node['path']}",
        "",
        f"*{version.code}:{version.edition} ({version.language}) · {node['path']} · {pages(node['page_start'], node['page_end'])}"
        + (f" · characters {offset:,}–{offset + len(content):,} of {total:,}*" if offset or next_offset is not None else "*"),
        "",
        content.strip() or "*(no text of its own; see the subclauses)*",
    ]
    if next_offset is not None:
        lines += ["", f"*… continued: next window at offset {next_offset:,} of {total:,} characters.*"]
    if figures:
        lines += ["", "**Figures**", ""] + [f"- `{figure.id}` {figure.caption}" for figure in figures]
    if refs:
        lines += ["", "**Cross-references**", ""]
        for ref in refs:
            where = ref.target_path or ""
            target = " ".join(part for part in (ref.target_code if not ref.internal else "", where) if part)
            status = (
                f"→ {target}" + (f" ({ref.target_title})" if ref.target_title else "")
                if ref.resolvable
                else f"→ {target} (not in this workspace)"
            )
            lines.append(f"- {ref.text} {status}")
    if children:
        lines += ["", "**Subclauses**", ""] + [
            f"- {child.path} {child.title}" if child.title != child.path else f"- {child.path}" for child in children
        ]
    return "\n".join(lines) + "\n"
