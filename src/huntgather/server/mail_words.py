"""The words of the mails and pushes the server sends, in the account's language.

An account keeps the language of the page it signed up on (``hg_accounts.language``: ``en``,
``cs`` or ``de``; changeable on its account screen); a mail to it is worded from the server's
catalogue in that language (``server/mail/<lang>.json``), and in English when it has none.  The
page's own words live in ``web/i18n/<lang>.json``; these are the server's, the same way: a key to a text or to
its plural forms (``one``, ``few``, ``other``: Czech counts 1, 2–4, 5 and more apart), with
``{name}`` parameters.  ``tests/test_notify.py`` checks that every language has every key
with the same parameters.

>>> words("cs", "turns.subject", n=3)
'Jste na tahu ve 3 hrách huntgather'
>>> words("de", "turns.subject", n=1)
'Du bist am Zug in einem Spiel von huntgather'
>>> words(None, "turns.subject", n=2)
'Your turn in 2 games of huntgather'
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Final

from huntgather.server.messages import ErrorCode
from huntgather.server.seats import RequestError

#: the languages the page and the mails speak; an account's language is one of them (or none:
#: English)
LANGUAGES: Final = ("en", "cs", "de")

Entry = str | dict[str, str]

#: the catalogues: server/mail/<lang>.json
MAIL_DIR: Final = Path(__file__).resolve().parent / "mail"


@cache
def catalogue(language: str) -> dict[str, Entry]:
    """The mail catalogue of ``language`` (one of :data:`LANGUAGES`)."""
    data: dict[str, Entry] = json.loads((MAIL_DIR / f"{language}.json").read_text(encoding="utf-8"))
    return data


def plural_form(language: str, n: int) -> str:
    """The plural category of ``n`` in ``language`` (as ``Intl.PluralRules`` names them, for
    whole numbers: Czech ``one`` 1, ``few`` 2–4, ``other`` the rest)."""
    if n == 1:
        return "one"
    if language == "cs" and 2 <= n <= 4:
        return "few"
    return "other"


def words(language: str | None, key: str, **params: object) -> str:
    """The text of ``key`` in ``language`` (English when it is None or unknown), its
    parameters filled in; a plural entry picks its form by ``n``."""
    lang = language if language in LANGUAGES else "en"
    entry = catalogue(lang).get(key, catalogue("en")[key])
    if isinstance(entry, dict):
        count = params.get("n", 0)
        form = plural_form(lang, count if isinstance(count, int) else 0)
        entry = entry.get(form, entry["other"])
    return entry.format(**params)


def check_language(value: object) -> str:
    """``value`` if it is a language of :data:`LANGUAGES`; raises ``bad_language``."""
    if not isinstance(value, str) or value not in LANGUAGES:
        raise RequestError(ErrorCode.BAD_LANGUAGE, f"'language' is one of {', '.join(LANGUAGES)}")
    return value
