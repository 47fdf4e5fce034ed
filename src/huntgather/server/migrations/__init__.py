"""Alembic migrations of the server's tables (see :mod:`huntgather.server.storage`)."""
