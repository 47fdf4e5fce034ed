"""The one SQLAlchemy ``MetaData`` every table of the database is declared on: the games' tables
(:mod:`huntgather.server.storage`) and the accounts' (:mod:`huntgather.server.account_tables`).
A new database gets them all at once from it (:func:`huntgather.server.storage.migrate`); the
migrations make the same tables step by step for an older one, as tests/test_storage.py checks."""

from sqlalchemy import MetaData

metadata = MetaData()
