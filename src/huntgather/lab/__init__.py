"""The experiment harness: what measures the players of :mod:`huntgather.bots`, apart from them.

=========================================  ===================================================
:mod:`huntgather.lab.tournament`           tournaments over mirrored deals, Elo and head to head
:mod:`huntgather.lab.tournament_log`       a tournament's resumable log (one JSON line a game)
=========================================  ===================================================

Nothing in :mod:`huntgather.bots` imports this package: a player needs none of it to play.
"""
