"""Folding: the one rule behind accent-, case- and transliteration-insensitive search and matching."""

from __future__ import annotations

import warnings

from normcli.fold import code_key, fold, fold_with_offsets, path_key


def test_fold_transliterates_and_lowercases() -> None:
    assert fold("Straße") == fold("STRASSE") == fold("Strasse") == "strasse"
    assert fold("Résistance à la Flexion") == "resistance a la flexion"
    assert fold("Überhöhung") == "uberhohung"


def test_codes_and_paths_match_forgivingly() -> None:
    assert code_key("SIA 261") == code_key("sia261") == code_key("SIA-261")
    assert path_key("Annexe A") == path_key("annexe a") == path_key("Anhang A") == path_key("Annex A")
    assert path_key("4.2.1.") == path_key("4.2.1")


def test_offsets_lead_back_to_the_original_characters() -> None:
    text = "Die Straße ist breit"
    folded, offsets = fold_with_offsets(text)
    start = folded.index("strasse")
    assert text[offsets[start] : offsets[start + len("strasse") - 1] + 1] == "Straße"


def test_folding_drops_lone_surrogates_silently() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert fold("Stra\udcdfe") == "strae"


def test_keys_drop_white_space_dashes_underscores_and_slashes_as_the_pattern_says() -> None:
    import re

    # The rule as a pattern, applied to folded text as the keys apply theirs: every character of every
    # kind a norm code or a clause path may hold, ASCII and not (en and em dashes, non-breaking and thin spaces).
    pattern = re.compile(r"[\s\-_–—/]+")
    samples = [chr(code) for code in range(0x250)] + ["\u2009", "\u00a0", "\u2013", "\u2014", "\u2212", "\u3000", "\u2028"]
    for char in samples:
        text = f"SIA{char}261{char}{char}-1 / A_b"
        assert code_key(text) == pattern.sub("", fold(text)).replace(".", ""), repr(char)
        assert path_key(f"4{char}2.1.") == pattern.sub("", fold(f"4{char}2.1.")).rstrip("."), repr(char)


def test_letters_and_punctuation_known_without_unidecode_are_what_unidecode_gives() -> None:
    from unidecode import unidecode

    from normcli.fold import _COMMON, _latin_letter

    assert all(unidecode(char) == value for char, value in _COMMON.items())
    known = {char: _latin_letter(char) for char in map(chr, range(0x80, 0x250))}
    assert sum(value is not None for value in known.values()) > 200
    assert all(value == unidecode(char) for char, value in known.items() if value is not None)


def test_folding_accented_text_and_typographic_quotes_loads_no_unidecode() -> None:
    import subprocess
    import sys

    text = "R\u00e9sistance \u2013 l\u2019\u00dcberbau \u201cok\u201d\u2026"
    code = f"import sys; from normcli.fold import fold; print(fold({text!r}), 'unidecode' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == 'resistance - l\'uberbau "ok"... False'


def test_annex_words_become_annex_exactly_as_the_pattern_did() -> None:
    import re

    from normcli.labels import ANNEX_FOLDED

    # path_key matches the annex words without `re` (start-up): the pattern it replaced is the oracle.
    pattern = re.compile(rf"^({'|'.join(ANNEX_FOLDED)})(?=[a-z0-9])")
    tails = ["", "a", "A", "1", ".1", " b", "-c", "e", "es", "x", "ä", "_", "/", "z9", "é"]
    texts = [f"{word}{tail}" for word in (*ANNEX_FOLDED, "anne", "annexes", "appendices", "Anhang", "ANNEXE", "xannex") for tail in tails]
    texts += [f"{word} {letter}" for word in ("Annexe", "Anhang", "Appendix", "Allegato", "Appendice") for letter in "AbZ9"]
    for text in texts:
        folded = fold(text).translate(str.maketrans("", "", " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f-_/")).rstrip(".")
        assert path_key(text) == pattern.sub("annex", folded), text
    assert path_key("Annexe A") == path_key("Anhang a") == path_key("Appendix A") == "annexa"
