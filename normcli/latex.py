"""LaTeX formulas as readable Unicode for people: `q_d = \\gamma_Q \\cdot q_k` → `q_d = γ_Q · q_k`.

pylatexenc parses the formula (groups, macro arguments, environments, tolerant of odd input); this
module walks its nodes with our own tables, because its own text conversion keeps `^2` and drops
environments. Subscripts stay as engineers write them (`s_k`, `γ_Q,1`); superscripts become Unicode
where every character has a superscript form (`m²`, `10⁻³`), else `^(…)`. A formula that is not
well-formed (an unclosed brace, `\\left` without `\\right`, a fraction without its parts, absurd
nesting) is shown as its source: `problem()` says why, for `check`.

JSON answers keep the LaTeX source; only what is shown to a person passes through here.
"""

from __future__ import annotations

import re
import unicodedata

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pylatexenc.latexwalker import LatexNode

MAX_NESTING = 40  # deeper than any real formula; pylatexenc recurses once per level
MAX_CHARS = 20_000

# Markers inside one rendering: a braced group (one atom for ^ and _), a cell or row break, a fence
# (\\left, \\right), a wide space (\\quad: kept as two spaces, as before an equation number).
_GROUP, _CELL, _ROW, _FENCE, _QUAD, _SOFT_SPACE = "\x00", "\x01", "\x02", "\x03", "\x04", "\x05"

SYMBOLS = {
    # Greek
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ϵ", "varepsilon": "ε", "zeta": "ζ",
    "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ", "varkappa": "ϰ", "lambda": "λ",
    "mu": "μ", "nu": "ν", "xi": "ξ", "omicron": "ο", "pi": "π", "varpi": "ϖ", "rho": "ρ", "varrho": "ϱ",
    "sigma": "σ", "varsigma": "ς", "tau": "τ", "upsilon": "υ", "phi": "ϕ", "varphi": "φ", "chi": "χ",
    "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π",
    "Sigma": "Σ", "Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω", "varGamma": "Γ", "varDelta": "Δ",
    # operators and relations
    "cdot": "·", "cdotp": "·", "times": "×", "div": "÷", "pm": "±", "mp": "∓", "ast": "∗", "star": "⋆",
    "circ": "∘", "bullet": "•", "oplus": "⊕", "ominus": "⊖", "otimes": "⊗", "oslash": "⊘", "odot": "⊙",
    "wedge": "∧", "land": "∧", "vee": "∨", "lor": "∨", "neg": "¬", "lnot": "¬", "cap": "∩", "cup": "∪",
    "setminus": "∖", "leq": "≤", "le": "≤", "leqslant": "⩽", "geq": "≥", "ge": "≥", "geqslant": "⩾",
    "neq": "≠", "ne": "≠", "approx": "≈", "simeq": "≃", "cong": "≅", "equiv": "≡", "sim": "∼", "propto": "∝",
    "ll": "≪", "gg": "≫", "lesssim": "≲", "gtrsim": "≳", "prec": "≺", "succ": "≻", "in": "∈", "notin": "∉",
    "ni": "∋", "subset": "⊂", "supset": "⊃", "subseteq": "⊆", "supseteq": "⊇", "perp": "⊥", "parallel": "∥",
    "mid": "∣", "nmid": "∤", "vert": "|", "Vert": "‖", "|": "‖", "coloneqq": "≔", "doteq": "≐", "triangleq": "≜",
    "models": "⊨", "vdash": "⊢", "dashv": "⊣", "top": "⊤", "bot": "⊥",
    # big operators
    "sum": "∑", "prod": "∏", "coprod": "∐", "int": "∫", "iint": "∬", "iiint": "∭", "oint": "∮",
    "bigcup": "⋃", "bigcap": "⋂", "bigvee": "⋁", "bigwedge": "⋀", "bigoplus": "⨁", "bigotimes": "⨂",
    # arrows
    "to": "→", "rightarrow": "→", "leftarrow": "←", "gets": "←", "leftrightarrow": "↔", "Rightarrow": "⇒",
    "Leftarrow": "⇐", "Leftrightarrow": "⇔", "implies": "⟹", "impliedby": "⟸", "iff": "⟺", "mapsto": "↦",
    "longrightarrow": "⟶", "longleftarrow": "⟵", "Longrightarrow": "⟹", "uparrow": "↑", "downarrow": "↓",
    "nearrow": "↗", "searrow": "↘", "hookrightarrow": "↪", "rightleftharpoons": "⇌",
    # miscellany
    "infty": "∞", "partial": "∂", "nabla": "∇", "forall": "∀", "exists": "∃", "nexists": "∄",
    "emptyset": "∅", "varnothing": "∅", "aleph": "ℵ", "hbar": "ℏ", "ell": "ℓ", "Re": "ℜ", "Im": "ℑ",
    "wp": "℘", "angle": "∠", "triangle": "△", "square": "□", "Box": "□", "diamond": "⋄", "prime": "′",
    "dagger": "†", "ddagger": "‡", "S": "§", "P": "¶", "degree": "°", "textdegree": "°", "celsius": "°C",
    "ldots": "…", "dots": "…", "dotsc": "…", "dotsb": "⋯", "cdots": "⋯", "vdots": "⋮", "ddots": "⋱",
    "langle": "⟨", "rangle": "⟩", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉",
    "lvert": "|", "rvert": "|", "lVert": "‖", "rVert": "‖", "backslash": "∖", "surd": "√",
    "checkmark": "✓", "euro": "€", "textperthousand": "‰", "permil": "‰", "textmu": "µ", "micro": "µ",
    "ohm": "Ω", "textohm": "Ω", "AA": "Å", "textbackslash": "\\", "textasciitilde": "~",
    "textasciicircum": "^",
    # escaped characters
    "{": "{", "}": "}", "%": "%", "$": "$", "&": "&", "#": "#", "_": "_",
    # spacing
    ",": " ", ":": " ", ";": " ", " ": " ", "quad": _QUAD, "qquad": _QUAD, "enspace": " ", "thinspace": " ",
    "medspace": " ", "thickspace": " ", "!": "", "negthinspace": "", "/": "", "nobreak": "", "relax": "",
    "displaystyle": "", "textstyle": "", "scriptstyle": "", "limits": "", "nolimits": "",  "big": "", "Big": "", "bigg": "", "Bigg": "", "bigl": "", "bigr": "",
    "Bigl": "", "Bigr": "", "biggl": "", "biggr": "", "Biggl": "", "Biggr": "", "bigm": "", "Bigm": "",
    "nonumber": "", "notag": "", "hfill": " ", "allowbreak": "", "strut": "", "phantom": "", "hphantom": "",
    "vphantom": "",
}  # fmt: skip
# Named functions print as their name: \max → max.
FUNCTIONS = frozenset(
    [
        "max",
        "min",
        "sup",
        "inf",
        "lim",
        "liminf",
        "limsup",
        "sin",
        "cos",
        "tan",
        "cot",
        "sec",
        "csc",
        "arcsin",
        "arccos",
        "arctan",
        "sinh",
        "cosh",
        "tanh",
        "coth",
        "log",
        "ln",
        "lg",
        "exp",
        "det",
        "dim",
        "ker",
        "hom",
        "arg",
        "deg",
        "gcd",
        "lcm",
        "Pr",
        "mod",
        "bmod",
        "sgn",
    ]
)
# Macros whose one argument is shown as it is (font and text switches).
_TEXT_MACROS = frozenset(
    [
        "text",
        "textrm",
        "textit",
        "textbf",
        "textsf",
        "texttt",
        "textup",
        "textnormal",
        "emph",
        "mathrm",
        "mathit",
        "mathbf",
        "mathsf",
        "mathtt",
        "mathnormal",
        "operatorname",
        "boldsymbol",
        "bm",
        "mbox",
        "hbox",
        "fbox",
        "underbrace",
        "overbrace",
        "pmb",
    ]
)
# Accents as combining characters after the (first) letter they sit on.
_ACCENTS = {
    "bar": "\u0304", "overline": "\u0305", "hat": "\u0302", "widehat": "\u0302", "tilde": "\u0303",
    "widetilde": "\u0303", "dot": "\u0307", "ddot": "\u0308", "dddot": "\u20db", "vec": "\u20d7",
    "overrightarrow": "\u20d7", "acute": "\u0301", "grave": "\u0300", "breve": "\u0306", "check": "\u030c",
    "underline": "\u0332", "mathring": "\u030a",
}  # fmt: skip
_SUPERSCRIPT = dict(
    zip(
        "0123456789+-−=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVWβγδθιφχ′*·.",
        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵝᵞᵟᶿᶥᵠᵡ′*˙·",
        strict=True,
    )
)
_BLACKBOARD = dict(zip("RNZQCPHE", "ℝℕℤℚℂℙℍ𝔼", strict=True))
_CALLIGRAPHIC = dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "𝒜ℬ𝒞𝒟ℰℱ𝒢ℋℐ𝒥𝒦ℒℳ𝒩𝒪𝒫𝒬ℛ𝒮𝒯𝒰𝒱𝒲𝒳𝒴𝒵", strict=True))
_ROOTS = {"2": "√", "3": "∛", "4": "∜"}
_MATRIX_FENCES = {"pmatrix": ("(", ")"), "bmatrix": ("[", "]"), "Bmatrix": ("{", "}"), "vmatrix": ("|", "|"), "Vmatrix": ("‖", "‖")}
_SIMPLE_SCRIPT = re.compile(r"[\w.,·′'*]+")


class Malformed(ValueError):
    """The formula is not well-formed LaTeX; the message says what is wrong."""


def problem(latex: str) -> str | None:
    """Why this formula cannot be shown as Unicode, or None when it can."""
    try:
        _convert(latex)
    except Malformed as error:
        return str(error)
    return None


def to_unicode(latex: str) -> str:
    """A formula as readable Unicode; a malformed one comes back as its source, never an error."""
    try:
        return _convert(latex)
    except Malformed:
        return latex.strip()


_ESCAPES = {"\\": "\\textbackslash{}", "{": "\\{", "}": "\\}", "$": "\\$", "%": "\\%", "#": "\\#", "&": "\\&", "_": "\\_",
            "^": "\\textasciicircum{}", "~": "\\textasciitilde{}"}  # fmt: skip
_TO_ESCAPE = re.compile(r"[\\{}$%#&_^~]")


def escape_text(text: str) -> str:
    """Plain text (a formula read off a PDF page) as LaTeX that shows exactly that text."""
    return _TO_ESCAPE.sub(lambda m: _ESCAPES[m.group(0)], text)


_FORMULA_SPAN = re.compile(r"\$\$.+?\$\$|(?<![\\$])\$[^$\n]+?\$", re.S)
_COMMAND_WORD = re.compile(r"\\([A-Za-z]+)")


def searchable(text: str) -> str:
    """Text as the search index should see it: inside formulas, command words become their symbols
    (`\\gamma` → γ) or disappear (`\\frac`, `\\qquad`), so that `frac` finds only the word frac."""
    if "$" not in text:
        return text

    def formula(match: re.Match[str]) -> str:
        return _COMMAND_WORD.sub(lambda m: f" {SYMBOLS[m.group(1)]} " if m.group(1) in SYMBOLS else " ", match.group(0))

    return _FORMULA_SPAN.sub(formula, text).replace(_QUAD, " ")


def fragment_to_unicode(piece: str) -> str:
    """Part of a formula (a snippet's edge cut it): whole if it parses, else its symbols without braces."""
    try:
        return _convert(piece)
    except Malformed:
        text = re.sub(r"\\([A-Za-z]+|.)", lambda m: SYMBOLS.get(m.group(1), m.group(1)), piece)
        return text.replace("{", "").replace("}", "").replace(_QUAD, "  ")


def _convert(latex: str) -> str:
    _check_shape(latex)
    from pylatexenc.latexwalker import LatexWalker, LatexWalkerError

    try:
        nodes, _, _ = LatexWalker(latex, latex_context=_context(), tolerant_parsing=True).get_latex_nodes()
    except (LatexWalkerError, RecursionError, IndexError) as error:
        raise Malformed(f"cannot parse: {error}") from None
    text = _Renderer().nodes(nodes).replace(_CELL, " ").replace(_ROW, "; ")
    text = re.sub(rf"(?<=[^\W\d_]){_SOFT_SPACE}(?=\w)", "", text).replace(_SOFT_SPACE, " ")
    text = re.sub(r"[ \t]+", " ", text).strip(" \x04")
    return re.sub(r" ?\x04[ \x04]*", "  ", text)


def shape_problem(latex: str) -> str | None:
    """What is wrong with a formula's shape (braces, `\\left`/`\\right`, `\\begin`/`\\end`, depth), or None.

    Cheap and free of the parser, so a bundle's every formula can be checked while it is read.
    """
    try:
        _check_shape(latex)
    except Malformed as error:
        return str(error)
    return None


_CONTEXT: list[object] = []


def _context() -> object:
    """pylatexenc's macro table plus the argument shapes of every command this module renders itself."""
    if not _CONTEXT:
        from pylatexenc.latexwalker import get_default_latex_context_db
        from pylatexenc.macrospec import MacroSpec

        shapes = {
            name: "{{" for name in ("frac", "dfrac", "tfrac", "cfrac", "binom", "dbinom", "tbinom", "stackrel", "overset", "underset")
        }
        shapes |= {name: "{" for name in (*_TEXT_MACROS, *_ACCENTS, "mathbb", "mathbbm", "mathds", "mathcal", "mathscr")}
        shapes["sqrt"] = "[{"
        context = get_default_latex_context_db()
        context.add_context_category("normcli", macros=[MacroSpec(name, shape) for name, shape in shapes.items()], prepend=True)
        _CONTEXT.append(context)
    return _CONTEXT[0]


def _check_shape(latex: str) -> None:
    """What the tolerant parser would silently accept: unbalanced braces and delimiters, absurd depth."""
    if len(latex) > MAX_CHARS:
        raise Malformed(f"longer than {MAX_CHARS:,} characters")
    depth = 0
    plain = re.sub(r"\\[\\{}]", "", latex)
    for char in plain:
        if char == "{":
            depth += 1
            if depth > MAX_NESTING:
                raise Malformed(f"braces nested more than {MAX_NESTING} deep")
        elif char == "}":
            depth -= 1
            if depth < 0:
                raise Malformed("a closing brace without its opening brace")
    if depth:
        raise Malformed(f"{depth} unclosed brace{'s' if depth > 1 else ''}")
    lefts, rights = len(re.findall(r"\\left(?![a-zA-Z])", latex)), len(re.findall(r"\\right(?![a-zA-Z])", latex))
    if lefts != rights:
        raise Malformed(f"\\left and \\right do not pair ({lefts} and {rights})")
    begins, ends = re.findall(r"\\begin\s*\{([^}]*)\}", latex), re.findall(r"\\end\s*\{([^}]*)\}", latex)
    if sorted(begins) != sorted(ends):
        raise Malformed("\\begin and \\end do not pair")


class _Renderer:
    """Walks pylatexenc nodes into text; `^` and `_` take the atom that follows them."""

    def nodes(self, nodes: list[LatexNode] | None) -> str:
        atoms: list[str] = []
        for node in nodes or ():
            atoms.extend(self._atoms(node))
        return self._scripts(atoms)

    def _atoms(self, node: LatexNode) -> list[str]:
        kind = type(node).__name__
        if kind == "LatexCharsNode":
            return list(node.chars.replace("\n", " ").replace("'", "′"))
        if kind == "LatexGroupNode":
            return [_GROUP + self.nodes(node.nodelist)]  # one atom: a script takes it whole
        if kind == "LatexMacroNode":
            # The parser eats the space after a command word. It is kept for reading (`\\cdot G` → `· G`,
            # `\\alpha \\le` → `α ≤`) except between a letter and a letter or digit (`\\Delta T` → ΔT).
            arguments = node.nodeargd.argnlist if node.nodeargd is not None else []
            text = self._macro(node)
            spaced = node.macro_post_space and node.macroname.isalpha() and not any(arguments)
            if text in ("^", "_"):
                text = _GROUP + text  # an escaped \_ or a caret shown as itself, not a script
            return [text, _SOFT_SPACE] if spaced else [text]
        if kind == "LatexEnvironmentNode":
            return [self._environment(node)]
        if kind == "LatexSpecialsNode":
            return {"&": [_CELL], "~": [" "]}.get(node.specials_chars, [node.specials_chars])
        if kind == "LatexMathNode":
            return [self.nodes(node.nodelist)]
        return []  # comments

    def _argument(self, node: LatexNode, index: int) -> str | None:
        args = node.nodeargd.argnlist if node.nodeargd is not None else []
        if not 0 <= index < len(args) or args[index] is None:
            return None
        arg = args[index]
        return self.nodes(arg.nodelist) if hasattr(arg, "nodelist") else self.nodes([arg])

    def _required(self, node: LatexNode, index: int) -> str:
        value = self._argument(node, index)
        if value is None:
            raise Malformed(f"\\{node.macroname} lacks an argument")
        return value

    def _macro(self, node: LatexNode) -> str:
        name = node.macroname
        if name in ("frac", "dfrac", "tfrac", "cfrac"):
            args = node.nodeargd.argnlist if node.nodeargd is not None else []
            top, bottom = self._required(node, len(args) - 2), self._required(node, len(args) - 1)
            return f"{_wrap(top)}/{_wrap(bottom)}"
        if name in ("binom", "dbinom", "tbinom"):
            return f"C({self._required(node, 0)}, {self._required(node, 1)})"
        if name == "sqrt":
            degree = (self._argument(node, 0) or "").strip()
            body = self._required(node, 1)
            sign = _ROOTS.get(degree or "2") or "".join(_SUPERSCRIPT.get(c, c) for c in degree) + "√"
            return f"{sign}{_wrap(body)}"
        if name in _TEXT_MACROS:
            return self._last_argument(node)
        if name in ("mathbb", "mathbbm", "mathds"):
            return "".join(_BLACKBOARD.get(c, c) for c in self._last_argument(node))
        if name in ("mathcal", "mathscr"):
            return "".join(_CALLIGRAPHIC.get(c, c) for c in self._last_argument(node))
        if name in _ACCENTS:
            return _accent(self._last_argument(node), _ACCENTS[name])
        if name in ("stackrel", "overset", "underset"):
            return f"{self._required(node, 1)}"
        if name == "\\":
            return _ROW
        if name in ("left", "right", "middle"):
            return _FENCE
        if name in ("begin", "end"):
            raise Malformed(f"\\{name} without its environment")
        if name in SYMBOLS:
            return SYMBOLS[name]
        if name in FUNCTIONS:
            return f"{name} "
        if not name.isalpha():
            return name
        # An unknown command: its name, so that nothing is lost and no backslash is shown.
        return name

    def _last_argument(self, node: LatexNode) -> str:
        args = node.nodeargd.argnlist if node.nodeargd is not None else []
        for index in range(len(args) - 1, -1, -1):
            if args[index] is not None:
                return self._argument(node, index) or ""
        return ""  # the argument followed as a group of its own and is rendered there

    def _environment(self, node: LatexNode) -> str:
        name = node.environmentname.rstrip("*")
        body = self.nodes(node.nodelist)
        rows = [" ".join(cell.strip() for cell in row.split(_CELL)).strip() for row in body.split(_ROW)]
        rows = [row for row in rows if row]
        if name == "cases":
            return "{ " + "; ".join(rows) + " }"
        if name in _MATRIX_FENCES:
            left, right = _MATRIX_FENCES[name]
            return left + "; ".join(rows) + right
        return "; ".join(rows)

    def _scripts(self, atoms: list[str]) -> str:
        out: list[str] = []
        index = 0
        while index < len(atoms):
            atom = atoms[index]
            index += 1
            if atom in ("^", "_"):
                while index < len(atoms) and atoms[index] in (" ", _SOFT_SPACE):
                    index += 1
                body = atoms[index].removeprefix(_GROUP) if index < len(atoms) else ""
                index += 1
                out.append(_superscript(body) if atom == "^" else _subscript(body))
            elif atom == _FENCE:
                if index < len(atoms) and atoms[index] == ".":
                    index += 1  # \left. and \right. stand for no delimiter
            else:
                out.append(atom.removeprefix(_GROUP))
        return "".join(out)


def _superscript(body: str) -> str:
    body = body.strip()
    if not body:
        return ""
    if all(char in _SUPERSCRIPT for char in body):
        return "".join(_SUPERSCRIPT[char] for char in body)
    return f"^{body}" if len(body) == 1 else f"^({body})"


def _subscript(body: str) -> str:
    body = body.strip()
    if not body:
        return ""
    return f"_{body}" if _SIMPLE_SCRIPT.fullmatch(body) else f"_({body})"


def _wrap(part: str) -> str:
    part = part.strip()
    return part if _SIMPLE_SCRIPT.fullmatch(part) and "," not in part else f"({part})"


def _accent(body: str, mark: str) -> str:
    """The combining mark on the letter it sits on (`\\bar{s}` → s̄); over a longer body, on each of its characters."""
    body = body.strip()
    if not body:
        return ""
    base = body.rstrip("".join(chr(c) for c in range(0x300, 0x370)) + "\u20d7\u20db")
    if len(base) == 1 and mark not in ("\u0305", "\u0332"):
        return unicodedata.normalize("NFC", body + mark)
    return "".join(char + mark if char.isalnum() else char for char in body)
