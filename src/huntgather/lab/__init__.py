"""The experiment harness: what measures the players of :mod:`huntgather.bots`, apart from them.

=========================================  ===================================================
:mod:`huntgather.lab.tournament`           tournaments over mirrored deals, Elo and head to head
:mod:`huntgather.lab.tournament_log`       a tournament's resumable log (one JSON line a game)
:mod:`huntgather.lab.ladder`               the ladder: every level against every other, its file
:mod:`huntgather.lab.tuning`               the expert's weights fitted by play (greedy duels)
=========================================  ===================================================

Nothing in :mod:`huntgather.bots` imports this package: a player needs none of it to play.  What a
player or the server reads at runtime stays there: the shipped ladder's rows
(:mod:`huntgather.bots.ladder`) and the weights file (:mod:`huntgather.bots.tuned`).
"""
