"""``docs/protocol.schema.json`` and the tables of ``docs/protocol.md``, made from the declarations.

Both files are written by ``python tools/protocol_docs.py`` and checked by
``tests/test_protocol_declarations.py``: a declaration changed without them fails the tests.
In ``protocol.md`` each table lies between ``<!-- BEGIN generated: NAME -->`` and
``<!-- END generated: NAME -->``; :func:`render_docs` replaces what is between.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from huntgather.server.fields import fields_of, schema_of, words
from huntgather.server.messages import (
    CLOSE_MEANINGS,
    ERROR_MEANINGS,
    INTENTS,
    MESSAGES,
    NOTICES,
    UPDATE_KEYS,
    Move,
)

_HIDDEN = {"type", "request"}   # said once, above the tables


def _fields(shape: type) -> str:
    """A shape's fields in words: `` `seat` (a whole number from 0 to 4); `name`? (text) ``."""
    out = []
    for name, annotation, required in fields_of(shape):
        if name in _HIDDEN:
            continue
        out.append(f"`{name}`{'' if required else '?'}: {words(annotation)}")
    return "; ".join(out) or "—"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def intents_table() -> str:
    rows = ["| intent | fields (`?`: may be left out) | when | who | what happens |", "|---|---|---|---|---|"]
    for kind, spec in INTENTS.items():
        costly = " (costly: counts against the page's budget, see Limits)" if spec.costly else ""
        rows.append(f"| `{kind}` | {_cell(_fields(spec.shape))} | {spec.when} | {spec.who} | "
                    f"{_cell(spec.does + costly)} |")
    return "\n".join(rows)


def messages_table() -> str:
    rows = ["| message | fields (`?`: may be absent) | sent |", "|---|---|---|"]
    for kind, spec in MESSAGES.items():
        rows.append(f"| `{kind}` | {_cell(_fields(spec.shape))} | {_cell(spec.when)} |")
    return "\n".join(rows)


def notices_table() -> str:
    rows = ["| notice | fields (`?`: may be absent) | meaning |", "|---|---|---|"]
    for kind, shape in NOTICES.items():
        meaning = " ".join((shape.__doc__ or "").split())
        rows.append(f"| `{kind}` | {_cell(_fields(shape))} | {_cell(meaning)} |")
    return "\n".join(rows)


def errors_table() -> str:
    rows = ["| code | meaning |", "|---|---|"]
    rows += [f"| `{code}` | {_cell(meaning)} |" for code, meaning in ERROR_MEANINGS.items()]
    return "\n".join(rows)


def close_codes_table() -> str:
    rows = ["| close code | reason, and when |", "|---|---|"]
    rows += [f"| {int(code)} | {_cell(meaning)} |" for code, meaning in CLOSE_MEANINGS.items()]
    return "\n".join(rows)


def update_keys() -> str:
    return ", ".join(f"`{key}`" for key in UPDATE_KEYS)


#: each generated block of ``docs/protocol.md``, by name
BLOCKS: dict[str, Callable[[], str]] = {
    "intents": intents_table,
    "messages": messages_table,
    "notices": notices_table,
    "errors": errors_table,
    "close-codes": close_codes_table,
    "update-keys": update_keys,
}


def _between(body: str) -> Callable[[re.Match[str]], str]:
    return lambda m: f"{m.group(1)}{body}\n{m.group(2)}"


def render_docs(text: str) -> str:
    """``text`` (``docs/protocol.md``) with every generated block made again."""
    for name, make in BLOCKS.items():
        pattern = re.compile(rf"(<!-- BEGIN generated: {name} -->\n).*?(<!-- END generated: {name} -->)",
                             re.DOTALL)
        if not pattern.search(text):
            raise ValueError(f"docs/protocol.md has no generated block {name!r}")
        text = pattern.sub(_between(make()), text)
    return text


def schema() -> dict[str, Any]:
    """The JSON Schema of every intent, server message and notice (draft 2020-12)."""
    defs: dict[str, Any] = {}
    families = {
        "intent": [schema_of(spec.shape, defs) for spec in INTENTS.values()],
        "message": [schema_of(spec.shape, defs) for spec in MESSAGES.values()],
        "notice": [schema_of(shape, defs) for shape in NOTICES.values()],
    }
    move = schema_of(Move, defs)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "huntgather's websocket protocol",
        "description": "Made from huntgather.server.messages by tools/protocol_docs.py; see "
                       "docs/protocol.md. "
                       "An intent is what a page sends, a message what the server sends, a notice "
                       "what one server process tells the others.",
        # any of them: `ping` and `pong` are both intents and messages (each side may send them)
        "anyOf": [{"$ref": f"#/$defs/{family}"} for family in families],
        "x-update-keys": list(UPDATE_KEYS),
        "$defs": {**{family: {"oneOf": refs} for family, refs in families.items()},
                  "move": move, **dict(sorted(defs.items()))},
    }


def schema_text() -> str:
    return json.dumps(schema(), indent=1, ensure_ascii=False) + "\n"
