"""The bounds of :func:`huntgather.server.codec.read_json`, which reads every message of a page.

Its limits (nesting, digits of a number, length of a float, no NaN) are checked here at their
edges, derived by hand: the depth scan runs only for a text with more than 32 opening brackets,
and the decoder with its hooks is made once, so both the texts below that limit and those above
it, brackets inside strings included, must still be judged as before.
"""

from __future__ import annotations

import pytest

from huntgather.server.codec import MAX_DEPTH, ProtocolError, read_json


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def refused(text: str | bytes) -> str:
    with pytest.raises(ProtocolError) as caught:
        read_json(text)
    assert caught.value.code == "bad_json"
    return caught.value.message


def test_nesting_up_to_the_limit_is_read_and_one_more_is_refused() -> None:
    assert read_json(nested(MAX_DEPTH)) == eval(nested(MAX_DEPTH))   # [[[…]]] is a Python literal too
    assert refused(nested(MAX_DEPTH + 1)) == "the message is nested more than 32 deep"
    assert refused('{"a": ' + nested(MAX_DEPTH) + "}") == "the message is nested more than 32 deep"
    assert refused(("{" + '"k": ') * 33 + "1" + "}" * 33) == "the message is nested more than 32 deep"


def test_many_brackets_that_do_not_nest_deep_are_read() -> None:
    # 40 opening brackets in all, but nested 2 deep: over the count that skips the scan
    siblings = "[" + ",".join(["[]"] * 39) + "]"
    assert read_json(siblings) == [[]] * 39
    # brackets inside strings never nest: 100 of them, and an escaped quote before them
    text = '{"name": "\\"' + "[{" * 50 + '", "ok": [1]}'
    assert read_json(text) == {"name": '"' + "[{" * 50, "ok": [1]}
    # a string that ends just before real nesting still counts the nesting after it
    assert refused('["[[[[", ' + nested(MAX_DEPTH) + "]") == "the message is nested more than 32 deep"


def test_numbers_are_bounded_as_before() -> None:
    assert read_json('{"n": ' + "9" * 20 + "}") == {"n": int("9" * 20)}
    assert read_json('{"n": -' + "9" * 20 + "}") == {"n": -int("9" * 20)}
    assert refused('{"n": ' + "9" * 21 + "}") == "numbers have at most 20 digits"
    forty = "1." + "0" * 38
    assert read_json(f"[{forty}]") == [1.0]
    assert refused(f"[{forty}0]") == "numbers have at most 40 characters"
    assert refused('{"x": NaN}') == "NaN is not a JSON number"
    assert refused("[-Infinity]") == "-Infinity is not a JSON number"


def test_what_is_not_json_is_refused() -> None:
    for text in ("{not json", "", "[1,]", '{"a": 1} x', "\ufeff{}", b"\xff{}"):
        assert refused(text) in ("the message is not valid JSON", "the message is not UTF-8 text")
    assert read_json(b'{"type": "pong"}') == {"type": "pong"}
    assert read_json(' \n{"a": [1, 2.5, true, null, "\\u00e9"]} ') == {"a": [1, 2.5, True, None, "é"]}
