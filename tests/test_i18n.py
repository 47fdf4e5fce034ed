"""The page's message catalogues (web/i18n/<lang>.json): every key the page's JavaScript asks
for with t("...") and index.html names with data-i18n="..." (or data-i18n-attr="title=...") is in
every catalogue, no catalogue holds a key nobody asks for, every server error code has its words,
the parameters agree across languages, and plural entries carry the forms each language's plural
rules pick (Czech: one for 1, few for 2-4, other for 0 and 5+, many for fractions)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from huntgather.server.messages import ErrorCode
from huntgather.server.rules_page import rules_payload

WEB = Path(__file__).resolve().parent.parent / "src" / "huntgather" / "web"
LANGUAGES = ("en", "cs", "de")
PLURAL_FORMS = {"en": {"one", "other"}, "de": {"one", "other"}, "cs": {"one", "few", "many", "other"}}
# error words the page itself raises (no server code): a fetch that failed, an error without a code
# (and the passkey ceremony's own refusals, passkeys.js)
CLIENT_ERRORS = {"network", "unknown", "passkey_cancelled", "passkey_unavailable", "passkey_failed"}
T_CALL = re.compile(r"""\bt\(\s*["']([a-z0-9_.]+)["']""")
DATA_I18N = re.compile(r'data-i18n="([a-z0-9_.]+)"')
DATA_I18N_ATTR = re.compile(r'data-i18n-attr="([^"]+)"')   # "title=key aria-label=key2"
PARAM = re.compile(r"\{(\w+)\}")


def catalogue(lang: str) -> dict[str, object]:
    data = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def rules_keys() -> set[str]:
    """The keys the rules pages send (GET /api/rules/EDITION): each section's title
    (``rules.<id>``), its paragraphs' and its diagrams' captions."""
    keys: set[str] = set()
    for edition in ("2020", "2002"):
        for section in json.loads(rules_payload(edition))["sections"]:
            keys.add(f"rules.{section['id']}")
            keys |= {text["key"] for text in section["texts"]}
            keys |= {d["key"] for d in section.get("diagrams", [])}
    return keys


SAY_LITERAL = re.compile(r"""["'](say\.[a-z_.]+)["']""")
SAY_PREFIX = re.compile(r"""f["'](say\.[a-z_.]+)\{""")   # f"say.zone.{kind}": every key that begins so


def said_keys() -> set[str]:
    """The keys the server sends as ``say`` (server/sayings.py): each "say.*" string of the Python
    sources, every key that an f-string "say.x.{...}" or a string "say.x." begins, and the
    separators of the list parameters those keys name (``say.sep.<parameter>``)."""
    english = catalogue("en")
    literal: set[str] = set()
    prefixes: set[str] = set()
    for path in (WEB.parent).rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        literal |= set(SAY_LITERAL.findall(text))
        prefixes |= set(SAY_PREFIX.findall(text))
    prefixes |= {k for k in literal if k.endswith(".")}   # "say.point." + name
    keys = {k for k in literal if not k.endswith(".")} | {k for k in english if k.startswith(tuple(prefixes))}
    params = {p for k in keys if k in english for text in texts(english[k]) for p in PARAM.findall(text)}
    return keys | {f"say.sep.{p}" for p in params if f"say.sep.{p}" in english}


def used_keys() -> set[str]:
    keys: set[str] = set()
    for path in [WEB / "app.js", *sorted((WEB / "js").glob("*.js"))]:
        keys |= set(T_CALL.findall(path.read_text(encoding="utf-8")))
    html = (WEB / "index.html").read_text(encoding="utf-8")
    keys |= set(DATA_I18N.findall(html))
    keys |= {pair.split("=", 1)[1] for attrs in DATA_I18N_ATTR.findall(html) for pair in attrs.split()}
    keys |= {f"error.{code.value}" for code in ErrorCode}   # errorText(code) reads these
    keys |= rules_keys()
    keys |= {f"error.{name}" for name in CLIENT_ERRORS}
    keys |= said_keys()
    return keys


def texts(entry: object) -> list[str]:
    if isinstance(entry, str):
        return [entry]
    assert isinstance(entry, dict), entry
    return [str(v) for v in entry.values()]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_key_missing_or_unused(lang: str) -> None:
    keys = set(catalogue(lang))
    used = used_keys()
    assert not used - keys, f"{lang}: missing {sorted(used - keys)}"
    assert not keys - used, f"{lang}: unused {sorted(keys - used)}"


@pytest.mark.parametrize("lang", ["cs", "de"])
def test_same_parameters_and_no_english_left(lang: str) -> None:
    en, other = catalogue("en"), catalogue(lang)
    for key, entry in en.items():
        want = {p for text in texts(entry) for p in PARAM.findall(text)}
        for text in texts(other[key]):
            assert set(PARAM.findall(text)) == want, (lang, key, text)
        if isinstance(entry, str) and len(entry) > 12 and re.search("[A-Za-z]", PARAM.sub("", entry)):
            assert other[key] != entry, f"{lang}: {key} is still English"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_forms(lang: str) -> None:
    plurals = {k: v for k, v in catalogue(lang).items() if isinstance(v, dict)}
    assert plurals, "a plural entry at least (points)"
    for key, forms in plurals.items():
        assert set(forms) == PLURAL_FORMS[lang], (lang, key)


def test_czech_points() -> None:
    points = catalogue("cs")["count.points"]
    assert isinstance(points, dict)
    assert points["one"].format(n=1) == "1 bod"
    assert points["few"].format(n=3) == "3 body"
    assert points["other"].format(n=5) == "5 bodů"
    assert points["other"].format(n=0) == "0 bodů"
