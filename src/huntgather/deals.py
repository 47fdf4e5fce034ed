"""Mirrored deals: the tiles of a deal drawn in one fixed order, whoever sits where.

A tournament plays each deal once per seat rotation, and a server game with ``mirror`` set
draws deal ``mirror`` of a tournament seed, so that the same tiles come in the same order
however the seats are turned (the luck of the draw is the same for every player).  Used by
the experiment harness (:mod:`huntgather.lab.tournament`), the server (a setup's ``mirror``)
and the arena of outside bots.
"""

from __future__ import annotations

import random

from huntgather.editions import get_edition


def deal_orders(edition: str, seed: int, deal: int) -> tuple[list[int], list[int]]:
    """The draw orders of both stacks for one deal (the same for all its seat rotations).

    >>> a = deal_orders("2020", 1, 0); b = deal_orders("2020", 1, 0)
    >>> a == b, a == deal_orders("2020", 1, 1)
    (True, False)
    """
    tiles = get_edition(edition).tiles
    rng = random.Random(f"deal|{edition}|{seed}|{deal}")
    normal, bonus = list(tiles.normal_ids), list(tiles.bonus_ids)
    rng.shuffle(normal)
    rng.shuffle(bonus)
    return normal, bonus
