"""Message shapes: bounds on their fields, the check made from a shape, and its JSON Schema.

A *shape* is a ``TypedDict``; a field's bounds ride along in ``Annotated``:

>>> from typing import Annotated, Literal, NotRequired, TypedDict
>>> class Greeting(TypedDict):
...     type: Literal["greeting"]
...     seat: Annotated[int, Range(0, 4)]
...     words: NotRequired[Annotated[list[Annotated[str, Length(1, 10)]], Length(0, 3)]]
>>> check = checker(Greeting)
>>> check({"type": "greeting", "seat": 2, "extra": 1})
{'type': 'greeting', 'seat': 2}
>>> check({"type": "greeting", "seat": 7})
Traceback (most recent call last):
...
huntgather.server.codec.ProtocolError: 'seat' must be a whole number from 0 to 4
>>> check({"type": "greeting"})
Traceback (most recent call last):
...
huntgather.server.codec.ProtocolError: 'seat' is required: a whole number from 0 to 4
>>> schema_of(Greeting, {})
{'$ref': '#/$defs/Greeting'}

:func:`checker` compiles a shape once into a function that checks a decoded JSON object
field by field and raises :class:`~huntgather.server.codec.ProtocolError` (``bad_request``
unless told otherwise) naming the first field that is wrong and what it must be.  An *open*
shape ignores fields it does not declare (they are left out of what the check returns); a
*closed* one refuses them.  A field of an enum type comes back as the enum's member.
:func:`schema_of` writes the same declaration as JSON Schema (draft 2020-12), and :func:`words`
as the plain words that the errors and ``docs/protocol.md`` use.
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    is_typeddict,
)

from huntgather.server.codec import ProtocolError


@dataclass(frozen=True)
class Range:
    """A whole number (or number) from ``low`` to ``high``."""

    low: int
    high: int


@dataclass(frozen=True)
class Length:
    """Text of ``low`` to ``high`` characters, or a list of ``low`` to ``high`` items."""

    low: int
    high: int


@dataclass(frozen=True)
class OneOf:
    """Text that is one of a set chosen at run time (e.g. the bot levels offered, which the
    registry of bots holds): ``choices()`` is asked each time a value is checked or described."""

    choices: Callable[[], Iterable[str]]

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(self.choices())


@dataclass(frozen=True)
class Later:
    """Not checked with the message but later, by what knows more (a move, by the position);
    the schema shows ``annotation``."""

    annotation: Any


@dataclass(frozen=True)
class Says:
    """The error message for this field, instead of the one made from its type."""

    text: str


@dataclass(frozen=True)
class Doc:
    """What the field means, for the schema and the docs."""

    text: str


Check = Callable[[Any], Any]


class _Bad(Exception):
    """A value that does not fit (the field's check turns it into a :class:`ProtocolError`)."""


_closed: set[type] = set()


def close(*shapes: type) -> None:
    """Mark ``shapes`` as closed: a field they do not declare is refused (and the schema says so)."""
    _closed.update(shapes)


def is_closed(shape: type) -> bool:
    return shape in _closed


# --------------------------------------------------------------------------- reading a declaration


def _split(annotation: Any) -> tuple[Any, tuple[Any, ...]]:
    """The type of an annotation and its ``Annotated`` metadata (``NotRequired`` taken off)."""
    meta: tuple[Any, ...] = ()
    while True:
        origin = get_origin(annotation)
        if origin is Annotated:
            meta += annotation.__metadata__
            annotation = annotation.__origin__
        elif origin in (NotRequired, Required):
            annotation = get_args(annotation)[0]
        else:
            return annotation, meta


def _meta(meta: tuple[Any, ...], kind: type[Any]) -> Any:
    return next((m for m in meta if isinstance(m, kind)), None)


def fields_of(shape: type) -> list[tuple[str, Any, bool]]:
    """``(name, annotation, required)`` of each field of a shape, in declaration order."""
    hints = typing.get_type_hints(shape, include_extras=True)
    required: frozenset[str] = shape.__required_keys__  # type: ignore[attr-defined]
    # ``NotRequired`` is read from the hint too: Python 3.11 misses it in a string annotation
    return [(name, hint, name in required and get_origin(hint) is not NotRequired)
            for name, hint in hints.items()]


def _is_enum(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, enum.Enum)


def _literal_values(tp: Any) -> list[Any]:
    return [v.value if isinstance(v, enum.Enum) else v for v in get_args(tp)]


def _union_args(tp: Any) -> tuple[Any, ...] | None:
    return get_args(tp) if get_origin(tp) in (Union, types.UnionType) else None


# --------------------------------------------------------------------------- words


def _quoted(values: list[Any]) -> str:
    texts = ["null" if v is None else repr(v) for v in values]
    return texts[0] if len(texts) == 1 else f"{', '.join(texts[:-1])} or {texts[-1]}"


def _count(length: Length | None, noun: str) -> str:
    if length is None:
        return f"any number of {noun}"
    if length.low == 0:
        return f"at most {length.high} {noun}"
    if length.low == length.high:
        return f"exactly {length.low} {noun}"
    return f"{length.low} to {length.high} {noun}"


def words(annotation: Any) -> str:
    """What a value of ``annotation`` must be, in plain words (``'a whole number from 0 to 4'``);
    an error about the field says it, unless the field has its own (:class:`Says`)."""
    tp, meta = _split(annotation)
    later = _meta(meta, Later)
    if later is not None:
        return words(later.annotation)
    union = _union_args(tp)
    if union is not None:
        return " or ".join(words(a) for a in union)
    if tp is type(None) or tp is None:
        return "null"
    if tp is bool:
        return "true or false"
    if tp is int or tp is float:
        noun = "a whole number" if tp is int else "a number"
        bounds = _meta(meta, Range)
        return f"{noun} from {bounds.low} to {bounds.high}" if bounds else noun
    if tp is str:
        one_of = _meta(meta, OneOf)
        if one_of is not None:
            return _quoted(list(one_of.values))
        length = _meta(meta, Length)
        return f"text of {_count(length, 'characters')}" if length else "text"
    if get_origin(tp) is Literal:
        return _quoted(_literal_values(tp))
    if _is_enum(tp):
        return _quoted([m.value for m in tp])
    if get_origin(tp) is list:
        (item,) = get_args(tp)
        each = words(item)
        listed = f"a list of {_count(_meta(meta, Length), 'items')}"
        return listed if each == "anything" else f"{listed}, each {each}"
    if is_typeddict(tp):
        return f"`{tp.__name__}`"
    if get_origin(tp) is dict:
        return "an object"
    return "anything"


# --------------------------------------------------------------------------- checking


def _check_of(annotation: Any) -> Check:
    """A function that returns a value of ``annotation`` (enums made members) or raises ``_Bad``."""
    tp, meta = _split(annotation)
    if _meta(meta, Later) is not None:
        return lambda value: value
    union = _union_args(tp)
    if union is not None:
        checks = [_check_of(a) for a in union]

        def any_of(value: Any) -> Any:
            for check in checks:
                try:
                    return check(value)
                except _Bad:
                    pass
            raise _Bad
        return any_of
    if tp is type(None) or tp is None:
        def null(value: Any) -> Any:
            if value is not None:
                raise _Bad
            return None
        return null
    if tp is Any:
        return lambda value: value
    if tp is bool:
        def boolean(value: Any) -> Any:
            if not isinstance(value, bool):
                raise _Bad
            return value
        return boolean
    if tp is int or tp is float:
        kinds = (int,) if tp is int else (int, float)
        bounds: Range | None = _meta(meta, Range)

        def number(value: Any) -> Any:
            if not isinstance(value, kinds) or isinstance(value, bool):
                raise _Bad
            if bounds is not None and not bounds.low <= value <= bounds.high:
                raise _Bad
            return value
        return number
    if tp is str:
        length = _meta(meta, Length)
        one_of = _meta(meta, OneOf)

        def text(value: Any) -> Any:
            if not isinstance(value, str):
                raise _Bad
            if length is not None and not length.low <= len(value) <= length.high:
                raise _Bad
            if one_of is not None and value not in one_of.values:
                raise _Bad
            return value
        return text
    if get_origin(tp) is Literal or _is_enum(tp):
        members = list(get_args(tp)) if get_origin(tp) is Literal else list(tp)
        by_value = {m.value if isinstance(m, enum.Enum) else m: m for m in members}

        def literal(value: Any) -> Any:
            if isinstance(value, bool | list | dict):
                raise _Bad
            try:
                return by_value[value]
            except KeyError:
                raise _Bad from None
        return literal
    if get_origin(tp) is list:
        (item,) = get_args(tp)
        check_item = _check_of(item)
        length = _meta(meta, Length)

        def items(value: Any) -> Any:
            if not isinstance(value, list):
                raise _Bad
            if length is not None and not length.low <= len(value) <= length.high:
                raise _Bad
            return [check_item(v) for v in value]
        return items
    if get_origin(tp) is dict:
        _key, val = get_args(tp)
        check_val = _check_of(val)

        def mapping(value: Any) -> Any:
            if not isinstance(value, dict):
                raise _Bad
            return {k: check_val(v) for k, v in value.items()}
        return mapping
    if is_typeddict(tp):
        inner = checker(tp)

        def nested(value: Any) -> Any:
            try:
                return inner(value)
            except ProtocolError:
                raise _Bad from None
        return nested
    raise TypeError(f"a field of type {tp!r} cannot be declared")


_checkers: dict[tuple[type, str, str], Check] = {}


def checker(shape: type, code: str = "bad_request", name: str | None = None) -> Check:
    """The check of a shape: takes a decoded JSON value, returns its declared fields (checked),
    or raises :class:`ProtocolError` with ``code`` saying which field is wrong and why
    (``name`` names the shape in the message about fields a closed shape does not declare)."""
    key = (shape, code, name or "")
    found = _checkers.get(key)
    if found is not None:
        return found
    #: each field: its name, its check, whether it is required, the message when it is wrong,
    #: the message when it is missing
    plan: list[tuple[str, Check, bool, str, str]] = []
    for field, annotation, required in fields_of(shape):
        says = _meta(_split(annotation)[1], Says)
        bad = says.text if says else f"{field!r} must be {words(annotation)}"
        missing = says.text if says else f"{field!r} is required: {words(annotation)}"
        plan.append((field, _check_of(annotation), required, bad, missing))
    declared = frozenset(f for f, *_ in plan)
    closed = is_closed(shape)
    what = name or shape.__name__

    def check(data: Any) -> Any:
        if not isinstance(data, dict):
            raise ProtocolError(code, f"a {what} must be a JSON object")
        out = {}
        for field, check_field, required, bad, missing in plan:
            if field not in data:
                if required:
                    raise ProtocolError(code, missing)
                continue
            try:
                out[field] = check_field(data[field])
            except _Bad:
                raise ProtocolError(code, bad) from None
        if closed and len(out) != len(data):
            extra = sorted(str(k) for k in set(data) - declared)
            raise ProtocolError(code, f"unknown field(s) in a {what}: {', '.join(extra)}")
        return out

    _checkers[key] = check
    return check


# --------------------------------------------------------------------------- JSON Schema


def schema_of(annotation: Any, defs: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of ``annotation``; the shapes it names are added to ``defs`` (by name)."""
    tp, meta = _split(annotation)
    later = _meta(meta, Later)
    if later is not None:
        return schema_of(later.annotation, defs)
    out: dict[str, Any]
    union = _union_args(tp)
    if union is not None:
        out = {"anyOf": [schema_of(a, defs) for a in union]}
    elif tp is type(None) or tp is None:
        out = {"type": "null"}
    elif tp is Any:
        out = {}
    elif tp is bool:
        out = {"type": "boolean"}
    elif tp is int or tp is float:
        out = {"type": "integer" if tp is int else "number"}
        bounds = _meta(meta, Range)
        if bounds is not None:
            out |= {"minimum": bounds.low, "maximum": bounds.high}
    elif tp is str:
        out = {"type": "string"}
        length, one_of = _meta(meta, Length), _meta(meta, OneOf)
        if length is not None:
            out |= {"minLength": length.low, "maxLength": length.high}
        if one_of is not None:
            out["enum"] = list(one_of.values)
    elif get_origin(tp) is Literal or _is_enum(tp):
        values = _literal_values(tp) if get_origin(tp) is Literal else [m.value for m in tp]
        out = {"const": values[0]} if len(values) == 1 else {"enum": values}
    elif get_origin(tp) is list:
        out = {"type": "array", "items": schema_of(get_args(tp)[0], defs)}
        length = _meta(meta, Length)
        if length is not None:
            out |= {"minItems": length.low, "maxItems": length.high}
    elif get_origin(tp) is dict:
        out = {"type": "object", "additionalProperties": schema_of(get_args(tp)[1], defs)}
    elif is_typeddict(tp):
        if tp.__name__ not in defs:
            defs[tp.__name__] = {}   # taken before its fields, so that a shape may contain itself
            defs[tp.__name__] = shape_schema(tp, defs)
        return {"$ref": f"#/$defs/{tp.__name__}"}
    else:
        raise TypeError(f"a field of type {tp!r} cannot be declared")
    doc = _meta(meta, Doc)
    if doc is not None:
        out["description"] = doc.text
    return out


def shape_schema(shape: type, defs: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of one shape (an object with its fields)."""
    fields = fields_of(shape)
    out: dict[str, Any] = {"type": "object"}
    if shape.__doc__:
        out["description"] = " ".join(shape.__doc__.split())
    out["properties"] = {name: schema_of(annotation, defs) for name, annotation, _ in fields}
    out["required"] = [name for name, _, required in fields if required]
    if is_closed(shape):
        out["additionalProperties"] = False
    return out
