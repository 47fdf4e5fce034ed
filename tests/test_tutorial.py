"""The guided first games: every scripted move replays through the engine to the position
text and the scores the script stores, and the coach's numbers are the engine's."""

from __future__ import annotations

import re

import pytest

from huntgather.moves import parse_move
from huntgather.record import write_position
from huntgather.tutorial import (
    COACH_LANGUAGES,
    EDITIONS,
    Check,
    check_step,
    coach_texts,
    load_script,
    new_game,
    replay,
)


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_step_reaches_its_stored_position_and_scores(edition):
    script = load_script(edition)
    states = replay(script)
    for step, state in zip(script.steps, states, strict=True):
        assert write_position(state) == step.position, step.key
        assert tuple(state.scores) == step.scores, step.key
    assert states[-1].phase == "over"


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_step_has_a_coach_text_and_no_text_is_unused(edition):
    texts = coach_texts()
    keys = {s.key for s in load_script(edition).steps}
    assert keys <= set(texts)
    assert {k for k in texts if k.startswith(edition + ".")} == keys


# hand-derived: 2020 forest of 3 tiles x 2 = 6; river 2 tiles + 2 fish in its 2 lakes = 4;
# final: yellow huts 2 fish + hunters 2 mammoths x 3 + 2 aurochs x 2 = 12 -> 22; red 1 + 7 = 8.
# 2002: forest 3 x 2 = 6; river 2 + 2 = 4; final: yellow hut 2 + meadow 6 -> 18; red 2 + 2 = 4.
@pytest.mark.parametrize(("edition", "key", "scores"), [
    ("2020", "2020.06", (6, 0)), ("2020", "2020.15", (10, 0)), ("2020", "2020.16", (22, 8)),
    ("2002", "2002.06", (6, 0)), ("2002", "2002.08", (10, 0)), ("2002", "2002.17", (18, 4)),
])
def test_the_scores_the_coach_announces(edition, key, scores):
    script = load_script(edition)
    states = dict(zip((s.key for s in script.steps), replay(script), strict=True))
    assert tuple(states[key].scores) == scores
    keys = [s.key for s in script.steps]
    before = list(states[keys[keys.index(key) - 1]].scores)
    text = coach_texts()[key]
    if states[key].phase == "over":
        assert f"{scores[0]} to {scores[1]}" in text
    else:
        assert f"= {scores[0] - before[0]} points" in text


def test_a_wrong_move_fails_the_check_and_a_free_step_takes_any_legal_move():
    script = load_script("2002")
    state = script.start_state()
    first = script.steps[0]
    state.apply(parse_move(first.moves[0]))
    assert check_step(state, first, first.moves[-1])
    wrong = next(str(m) for m in state.legal_moves() if str(m) != first.moves[-1])
    assert not check_step(state, first, wrong)
    states = replay(script)
    free = next(i for i, s in enumerate(script.steps) if s.check is Check.FREE)
    before = states[free - 1].copy()
    for word in script.steps[free].moves[:-1]:
        before.apply(parse_move(word))
    assert all(check_step(before, script.steps[free], str(m)) for m in before.legal_moves())


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_game_of_the_script_draws_its_tiles_and_plays_its_moves(edition):
    script = load_script(edition)
    game = new_game(edition)
    for step in script.steps:   # the game draws by itself, from the script's order
        game.play(step.moves[-1])
    assert [str(m) for m in game.history] == [w for step in script.steps for w in step.moves]
    assert game.is_over and game.scores == script.steps[-1].scores


def test_every_coach_language_has_the_english_keys_and_every_retry_has_words():
    from huntgather.tutorial import _data

    english = coach_texts()
    assert {"en", "cs", "de"} <= set(COACH_LANGUAGES)
    for lang in COACH_LANGUAGES:
        assert set(_data(f"coach.{lang}.json")) == set(english), lang
    retries = {"retry.square", "retry.rotation", "retry.no_piece", "retry.piece", "retry.zone", "retry.move"}
    assert retries == {k for k in english if k.startswith("retry.")}


@pytest.mark.parametrize("lang", [lang for lang in COACH_LANGUAGES if lang != "en"])
def test_a_translated_coach_keeps_every_number_and_parameter_of_the_english(lang):
    """Each text of a translation has the English text's numbers (the points, the counts, the
    final score) and {parameters}, each as many times; its words are its own and not English."""
    from huntgather.tutorial import _data

    english = coach_texts()
    own = _data(f"coach.{lang}.json")
    for key, text in own.items():
        for pattern in (r"\d+", r"\{\w+\}"):
            assert sorted(re.findall(pattern, text)) == sorted(re.findall(pattern, english[key])), (lang, key)
        assert text.strip() and text != english[key], (lang, key)
    assert coach_texts(lang) == own   # every key its own: nothing falls back to English
