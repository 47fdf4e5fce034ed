"""The core's phrases (huntgather.phrases): a :class:`Said` carries English words and their
:class:`Say`; one made by ``later`` makes its phrase only when ``.say`` is first read, and that
phrase is the one the explanation always had (the phrases below are derived by hand from the
catalogue keys that the explanations use)."""

from __future__ import annotations

import pickle

from huntgather.editions import get_edition
from huntgather.phrases import Said, Say, later
from huntgather.record import load_position
from huntgather.scoring import animal_points, river_points, score_completed


def test_a_said_made_later_makes_its_phrase_once_at_the_first_read() -> None:
    made: list[int] = []

    def make(n: int) -> Say:
        made.append(n)
        return Say("say.fish", n=n)

    text = later("3 fish", make, 3)
    assert text == "3 fish" and isinstance(text, Said) and made == []
    first = text.say
    assert first == Say("say.fish", n=3) and made == [3]
    assert text.say is first and made == [3]


def test_a_said_pickles_with_its_phrase_made_or_not() -> None:
    for text in (Said("3 fish", Say("say.fish", n=3)), later("3 fish", lambda: Say("say.fish", n=3))):
        back = pickle.loads(pickle.dumps(text))
        assert isinstance(back, Said) and back == "3 fish" and back.say == Say("say.fish", n=3)
    assert not hasattr(Said("x", Say("say.raw", text="x")), "__dict__")   # (slots: no dict a text)


def test_a_rivers_and_an_areas_sums_say_their_terms() -> None:
    e = get_edition("2020")
    _, text = river_points(e, tiles=3, river_fish=1, lake_fish=2, lakes=2)
    assert text == "3 tiles ×1 + 1 fish in the river + 2 fish in 2 lakes = 6"
    assert isinstance(text, Said) and text.say == Say("say.sum", terms=(
        Say("say.tiles_times", n=3, per=1), Say("say.river_fish", fish=1), Say("say.lake_fish", fish=2, n=2)),
        total=6)
    # wild fire: the tiger eats no deer; the pit trap's mammoth scores 3 twice, ×6
    points, text = animal_points(e, {"deer": 2, "tiger": 1}, {"mammoth": 1}, ignore_tigers=True, factor=2)
    assert (points, text) == (8, "2 deer ×1 + 1 mammoth in the pit trap's area ×6 + 1 tiger chased away "
                                 "by fire = 8")
    assert isinstance(text, Said) and text.say == Say("say.sum", terms=(
        Say("say.animals_times", animals=Say("say.animals.deer", n=2), area="", per=1),
        Say("say.animals_times", animals=Say("say.animals.mammoth", n=1), area=Say("say.area.pit_trap"),
            per=6),
        Say("say.tigers_gone", n=1, why=Say("say.why.fire"))), total=8)


def test_a_completed_forests_explanation_says_who_scores() -> None:
    s = load_position("huntgather record 1\nplayers 2\ntile 56 0,0 r0\ntile 34 1,0 r0\n"
                      "tile 37 0,1 r0\noccupant 34.3 meeple 1\nmoves")
    text = score_completed(s.board, s.edition, s.board.feature_id(34, 3), 2).explanation
    assert text == "Forest of 3 tiles: 3 tiles ×2 = 6 → red (1 gatherer)"
    assert isinstance(text, Said) and text.say.json() == {"key": "say.scored.forest", "params": {
        "n": 3,
        "sum": {"key": "say.sum", "params": {
            "terms": [{"key": "say.tiles_times", "params": {"n": 3, "per": 2}}], "total": 6}},
        "who": {"key": "say.who_scores", "params": {
            "lead": [{"key": "say.holder", "params": {
                "seat": {"key": "seat", "params": {"seat": 1}},
                "pieces": {"key": "say.pieces.gatherer", "params": {"n": 1}}}}],
            "others": []}}}}
