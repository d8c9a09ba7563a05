"""The page's two languages are complete (issue 13, item 7), read from src/paiju/web/i18n.js
without a browser: the message table STRINGS and the label table NAMES have the same keys
in Chinese and English with the same {placeholders}; every key the page's scripts look up
by name exists; every reason code an engine or the hall can raise (paiju.errors.REASONS)
has a sentence ``reason.<code>`` in both languages; every room option of every game has
its name, its tooltip and its choices in both languages.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

WEB = Path(__file__).resolve().parents[1] / "src" / "paiju" / "web"
ENTRY = re.compile(r'^\s*(?:"(?P<q>[^"]+)"|(?P<k>[A-Za-z_][\w]*))\s*:\s*(?P<v>"(?:[^"\\]|\\.)*")\s*,?\s*(?://.*)?$')
PLACEHOLDER = re.compile(r"\{(\w+)\}")
CJK = re.compile(r"[\u3400-\u9fff]")


def parse_table(source: str, name: str) -> dict[str, dict[str, str]]:
    """``const NAME = { zh: {...}, en: {...} };`` as {lang: {key: value}}; every line in it
    must be an entry, a comment, blank or a brace (so nothing is skipped unseen)."""
    start = source.index(f"const {name} = {{")
    out: dict[str, dict[str, str]] = {}
    lang: str | None = None
    for n, line in enumerate(source[start:].splitlines()[1:], 1):
        stripped = line.strip()
        m = re.fullmatch(r"(\w+): \{", stripped)
        if m:
            lang = m.group(1)
            out[lang] = {}
            continue
        if stripped in ("},", "}"):
            lang = None
            continue
        if stripped == "};":
            return out
        if not stripped or stripped.startswith("//"):
            continue
        e = ENTRY.match(line)
        assert e and lang, f"{name}, line {n} after its start: not a simple entry: {line!r}"
        key = e.group("q") or e.group("k")
        assert key not in out[lang], f"{name}.{lang}: {key!r} twice"
        out[lang][key] = json.loads(e.group("v"))
    raise AssertionError(f"{name} does not end")


@cache
def tables() -> tuple[dict[str, dict[str, str]], dict[str, dict[str, str]]]:
    source = (WEB / "i18n.js").read_text()
    return parse_table(source, "STRINGS"), parse_table(source, "NAMES")


def test_both_languages_have_the_same_keys_and_placeholders() -> None:
    for name, table in zip(("STRINGS", "NAMES"), tables(), strict=True):
        assert set(table) == {"zh", "en"}
        zh, en = table["zh"], table["en"]
        assert not set(zh) - set(en), f"{name}: only in Chinese: {sorted(set(zh) - set(en))}"
        assert not set(en) - set(zh), f"{name}: only in English: {sorted(set(en) - set(zh))}"
        for key in zh:
            assert set(PLACEHOLDER.findall(zh[key])) == set(PLACEHOLDER.findall(en[key])), (
                f"{name}.{key}: the placeholders differ: {zh[key]!r} / {en[key]!r}"
            )


def test_chinese_sentences_are_chinese() -> None:
    """The Chinese page's error sentences and tooltips are in Chinese."""
    strings, names = tables()
    for table in (strings["zh"], names["zh"]):
        for key, value in table.items():
            if key.startswith(("reason.", "help.")):
                assert CJK.search(value), f"{key}: {value!r} has no Chinese"


def test_english_grammar() -> None:
    """A team or a name filled in where the subject may be plural ("Us wins") is avoided;
    joker names are English."""
    strings, _ = tables()
    en = strings["en"]
    bad = re.compile(r"^\{team\} (?:wins|leads|is|has)\b")
    assert not [k for k, v in en.items() if bad.search(v)], "a {team} subject with a singular verb"
    assert en["bj"] == "Big Joker" and en["sj"] == "Small Joker"
    assert not CJK.search(en["joker_face_bj"] + en["joker_face_sj"])
    for key in ("result_double", "result_single", "result_level"):
        assert not CJK.search(en[key]), f"{key}: {en[key]!r} is not all English"


# English values that may hold Chinese: the switch to the Chinese page names it in Chinese;
# an option's tooltip (help.*) gives the Chinese term once, for a player who knows the game by it
CJK_ALLOWED = {"STRINGS": {"lang_switch"}, "NAMES": {k for k in tables()[1]["en"] if k.startswith("help.")}}
# counts that are never 1: a table's 4 or 5 seats, a kitty of 6 or 8 cards, a relief of hundreds of beans
ALWAYS_MANY = {"need_all_seats", "prompt_bury", "relief_given"}


def test_english_reads_as_english() -> None:
    """Issue 29: no Chinese glosses on English labels ("Tracker (记牌器)", "托管 1/3") and no
    "bot(s)": a count is said with plural forms (key_one / key_other, chosen by t())."""
    bad = []
    for name, table in zip(("STRINGS", "NAMES"), tables(), strict=True):
        for key, value in table["en"].items():
            if CJK.search(value) and key not in CJK_ALLOWED[name]:
                bad.append(f"{name}.{key}: {value!r} has Chinese")
            if "(s)" in value:
                bad.append(f"{name}.{key}: {value!r} says (s)")
            counted = re.search(r"\{n\} (?!pts\b)(?:[a-z]+s|levels?)\b", value)  # "pts": an abbreviation
            if counted and not key.endswith(("_one", "_other")) and key not in ALWAYS_MANY:
                bad.append(f"{name}.{key}: {value!r} counts without plural forms")
            if key.endswith("_one") and "{n}" in value and f"{key[:-4]}_other" not in table["en"]:
                bad.append(f"{name}.{key}: no _other form")
    assert not bad, "\n".join(bad)


def scripts() -> dict[str, str]:
    return {str(p.relative_to(WEB)): p.read_text() for p in sorted(WEB.rglob("*.js"))}


def test_every_key_the_page_looks_up_exists() -> None:
    strings, names = tables()
    missing = []
    prefixes = []
    for file, text in scripts().items():
        for fn, key, end in re.findall(r'\b(t|label)\("([^"]+)"\s*([,)+])', text):
            table = strings if fn == "t" else names
            if end == "+":  # a family of keys: "reason." + code
                prefixes.append((file, fn, key))
            elif fn == "t" and key not in table["en"] and f"{key}_other" not in table["en"]:
                missing.append(f"{file}: t({key!r})")
            elif fn == "label" and end == ")" and key not in table["en"]:
                missing.append(f"{file}: label({key!r})")
    assert not missing, "keys looked up but not defined:\n" + "\n".join(missing)
    for file, fn, prefix in prefixes:
        table = strings if fn == "t" else names
        assert any(k.startswith(prefix) for k in table["en"]), f"{file}: no key starts with {fn}({prefix!r} + …)"


# the packages and modules whose code may raise IllegalAction to a player (or a bot)
RAISING = ("server", "baohuang", "shengji", "shuangkou", "registry", "specs", "options", "match", "game", "cards")


def all_reason_codes() -> dict[str, str]:
    """paiju.errors.REASONS once every module that registers codes is imported."""
    import paiju
    from paiju.errors import REASONS

    for info in pkgutil.walk_packages(paiju.__path__, "paiju."):
        if info.name.split(".")[1] in RAISING and not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    return dict(REASONS)


def test_every_reason_code_has_both_sentences() -> None:
    strings, _ = tables()
    codes = all_reason_codes()
    assert len(codes) > 10, codes
    missing = {lang: sorted(c for c in codes if f"reason.{c}" not in strings[lang]) for lang in ("zh", "en")}
    assert not missing["zh"] and not missing["en"], f"reason codes without a sentence: {missing}"
    for code, template in codes.items():
        for lang in ("zh", "en"):
            got = set(PLACEHOLDER.findall(strings[lang][f"reason.{code}"]))
            assert got <= set(PLACEHOLDER.findall(template)), (
                f"reason.{code} ({lang}) uses {got - set(PLACEHOLDER.findall(template))}, not params of the code"
            )


def room_games() -> dict[str, Any]:
    from paiju.server.tables.games_info import games_info

    games: dict[str, Any] = games_info()["games"]
    return games


@pytest.mark.parametrize("game", ["baohuang", "shengji", "shuangkou"])
def test_every_room_option_is_named_and_explained_in_both_languages(game: str) -> None:
    _, names = tables()
    from paiju.server.tables.games_info import HALL_OPTIONS

    info = room_games()[game]
    options = [*info["options"], *HALL_OPTIONS]  # the page's room form shows the hall's options too
    need = [game]
    for o in options:
        need += [f"opt.{o['name']}", f"help.{o['name']}"]
    for lang in ("zh", "en"):
        missing = [k for k in need if k not in names[lang]]
        # a preset is named in its game ("shengji.standard"), or by its name alone (presetLabel)
        missing += [p for p in info.get("presets") or {} if f"{game}.{p}" not in names[lang] and p not in names[lang]]
        assert not missing, f"{game} ({lang}): no label for {missing}"
        for o in options:
            for c in o.get("choices") or []:
                shown = json.dumps(c) if isinstance(c, bool) else c  # the page's String(c): true, false
                if isinstance(shown, int) or o["type"] == "rank" or re.fullmatch(r"[2-9TJQKA]", str(c)):
                    continue  # numbers and ranks show as they are
                keys = (f"val.{o['name']}.{shown}", f"val.{shown}")
                assert any(k in names[lang] for k in keys), f"{game} ({lang}): no label for {o['name']} = {c!r}"
