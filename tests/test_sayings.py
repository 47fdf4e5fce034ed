"""The game's words in every language (server/sayings.py): what the server sends as ``say`` beside
each English ``text`` — log lines, choices, hints, scoring rows, the game's end, the decision.

- over the shared random games, the English ``text`` is the ``say`` rendered from en.json (one
  truth), and so are the rules core's own explanations (its ``Said`` strings);
- every key said is in the three catalogues, and renders there with every parameter filled;
- tests/data/sayings.json (phrases of every key the corpus says, with their words in the three
  languages as the server renders them) is current: tests/js/i18n.test.mjs renders the same phrases
  with the page's renderer and must find the same words.  ``HUNTGATHER_WRITE_SAYINGS=1`` rewrites it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from huntgather.events import FeatureScored, FinalScoring
from huntgather.game import Game
from huntgather.moves import Place
from huntgather.phrases import Said, Say
from huntgather.server import protocol
from huntgather.server.sayings import catalogue, say
from huntgather.server.words import square_words

SAMPLES = Path(__file__).resolve().parent / "data" / "sayings.json"
LANGUAGES = ("en", "cs", "de")
#: the corpus games read: per edition, 2 and 4 players, this many seeds each
SEEDS = 5


def phrase(data: Any) -> Say:
    """A :class:`Say` back from its wire form."""
    params: dict[str, Any] = {}
    for name, value in data["params"].items():
        if isinstance(value, list):
            params[name] = tuple(phrase(v) for v in value)
        elif isinstance(value, dict):
            params[name] = phrase(value)
        else:
            params[name] = value
    return Say(data["key"], **params)


def walk(data: Any) -> Iterator[dict[str, Any]]:
    """Every phrase in a wire phrase, itself first."""
    yield data
    for value in data["params"].values():
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, dict):
                yield from walk(v)


def said_views(corpus: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(text, say)`` of the views of the corpus games: every log line, the final table and the
    game's end, and at every 13th move the decision, the choices and a hint's words for a turn
    and for its squares."""
    for edition in ("2020", "2002"):
        for players in (2, 4):
            for game in corpus.games(edition, players)[:SEEDS]:
                view = protocol.snapshot(game, "g", 0, "secret")
                for e in view["log"]:
                    yield e["text"], dict(e["say"])
                final = view["final"]
                assert final is not None
                yield final["text"], dict(final["say"])
                for row in final["rows"]:
                    yield row["explanation"], dict(row["say"])
                for at in range(1, len(game.history), 13):
                    position = Game.replay(game.initial, game.history[:at])
                    state = position.state
                    decision = protocol.decision_view(state)
                    yield decision["text"], dict(decision["say"])
                    for move in protocol.legal_json(state):
                        if "say" in move:
                            yield move["text"], dict(move["say"])
                    if state.phase == "place":
                        turn = protocol.describe_turn(state, state.legal_moves()[:1])
                        yield turn, turn.say.json()
                        squares = sorted({(m.x, m.y) for m in state.legal_moves() if isinstance(m, Place)})
                        for where in square_words(state.board, squares[:4], state.current_player):
                            yield where, where.say.json()


@pytest.fixture(scope="module")
def views(corpus: Any) -> list[tuple[str, dict[str, Any]]]:
    return list(said_views(corpus))


@pytest.mark.xdist_group("corpus")
def test_the_english_text_is_the_say_rendered_and_every_key_is_in_every_catalogue(
        views: list[tuple[str, dict[str, Any]]]) -> None:
    seen: dict[str, dict[str, Any]] = {}
    count = 0
    for text, said in views:
        count += 1
        assert say(phrase(said)) == text, said
        for part in walk(said):
            seen.setdefault(part["key"], part)
    assert count > 300
    for key, part in seen.items():
        if key == "seat":
            continue
        for lang in LANGUAGES:
            assert key in catalogue(lang), (lang, key)
            words = say(phrase(part), lang)
            assert "{" not in words and "say." not in words, (lang, key, words)


@pytest.mark.xdist_group("corpus")
def test_the_cores_explanations_are_their_say_in_english(corpus: Any) -> None:
    count = 0
    for edition in ("2020", "2002"):
        for game in corpus.games(edition, 3)[:SEEDS]:
            for e in game.events:
                texts = [e.explanation] if isinstance(e, FeatureScored) else \
                    [r.explanation for r in e.rows] if isinstance(e, FinalScoring) else []
                for text in texts:
                    assert isinstance(text, Said), text
                    assert say(text.say) == text
                    count += 1
    assert count > 50


def samples(views: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The first phrase the corpus says of each key (at its top), with its words in each language."""
    first: dict[str, dict[str, Any]] = {}
    for _text, said in views:
        first.setdefault(said["key"], said)
    return [{"say": said, **{lang: say(phrase(said), lang) for lang in LANGUAGES}}
            for _key, said in sorted(first.items())]


Views = list[tuple[str, dict[str, Any]]]


@pytest.mark.xdist_group("corpus")
def test_the_sample_phrases_for_the_pages_renderer_are_current(views: Views) -> None:
    made = samples(views)
    if os.environ.get("HUNTGATHER_WRITE_SAYINGS"):
        SAMPLES.write_text(json.dumps(made, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    assert json.loads(SAMPLES.read_text(encoding="utf-8")) == made, \
        "tests/data/sayings.json is stale: HUNTGATHER_WRITE_SAYINGS=1 pytest tests/test_sayings.py"


def test_czech_arithmetic_with_its_plural_forms() -> None:
    forest = Say("say.scored.forest", n=3, sum=Say("say.sum", terms=(
        Say("say.tiles_times", n=3, per=2), Say("say.mushrooms_times", n=1, per=2)), total=8),
        who=Say("say.who_scores", lead=(Say("say.holder", seat=Say.seat(1),
                                                pieces=Say("say.pieces.gatherer", n=2)),),
                others=(Say("say.versus", seat=Say.seat(0), n=1),)))
    assert say(forest) == ("Forest of 3 tiles: 3 tiles ×2 + 1 mushroom group ×2 = 8 → red (2 gatherers) "
                           "vs yellow (1)")
    assert say(forest, "cs") == ("Les ze 3 kartiček: 3 kartičky ×2 + 1 skupina hub ×2 = 8 → červený "
                                 "(2 sběrači) proti: žlutý (1)")
    assert say(forest, "de") == ("Wald aus 3 Plättchen: 3 Plättchen ×2 + 1 Pilzgruppe ×2 = 8 → Rot "
                                 "(2 Sammler) gegen Gelb (1)")
    nuggets = Say("say.fact.gold_nugget", n=5)
    assert [say(nuggets, "cs"), say(Say("say.fact.gold_nugget", n=2), "cs")] == ["5 zlatých nugetů",
                                                                                "2 zlaté nugety"]


def test_a_phrase_is_worded_once_and_never_confused_with_another() -> None:
    """protocol.words_of keeps each distinct phrase's words: the same phrase made again gets the
    same (shared) words; phrases that differ only in a nested parameter, a list's order or a
    ``bool`` for the ``int`` it equals get their own."""
    row = Say("say.fish", n=3)
    text, wire = protocol.words_of(row)
    assert (text, wire) == (say(row), row.json())
    assert protocol.words_of(Say("say.fish", n=3))[1] is wire
    phrases = [Say("say.seat_score", seat=Say.seat(0), n=1), Say("say.seat_score", seat=Say.seat(1), n=1),
               Say("say.seat_score", seat=Say.seat(1), n=True),
               Say("say.game_over_shared", table=(), winners=(Say.seat(0), Say.seat(1))),
               Say("say.game_over_shared", table=(), winners=(Say.seat(1), Say.seat(0)))]
    for phrase in phrases:
        assert protocol.words_of(phrase) == (say(phrase), phrase.json())
    assert len({json.dumps(protocol.words_of(p)[1]) for p in phrases}) == len(phrases)
