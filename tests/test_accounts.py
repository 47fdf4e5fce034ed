"""Accounts (``huntgather.server.accounts``): names, folding, passwords, sessions, deletion, and
``huntgather admin``.

The HTTP routes as an attacker meets them are in ``test_accounts_http.py``.  Passwords are
hashed with cheap argon2 parameters here (one test uses the defaults).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("argon2")

from argon2 import PasswordHasher
from sqlalchemy import func, insert, select

from huntgather.cli import main as cli_main
from huntgather.server import accounts as accounts_module
from huntgather.server.account_tables import AccountKind, accounts, passkeys, sessions
from huntgather.server.accounts import (
    DELETED_NAME,
    SESSION_IDLE,
    SESSION_ROTATE,
    Accounts,
    account_name,
    name_key,
    session_hash,
)
from huntgather.server.routes_accounts import FailureLimit
from huntgather.server.seats import RequestError
from huntgather.server.storage import SeatRow, Storage, games

CHEAP = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1)


@pytest.fixture
def storage() -> Iterator[Storage]:
    s = Storage("sqlite://")
    yield s
    s.close()


@pytest.fixture
def accts(storage: Storage) -> Accounts:
    return Accounts(storage, hasher=CHEAP)


class Clock:
    """``time.time`` as the accounts module sees it, moved on by hand."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = time.time()
        monkeypatch.setattr(accounts_module.time, "time", lambda: self.now)


# --------------------------------------------------------------------------- names


@pytest.mark.parametrize(("one", "other"), [
    ("Ann Lee", "ann lee"),
    ("Ann Lee", "ANN   LEE"),
    ("Ann", "\u0410nn"),                  # a Cyrillic capital A
    ("Ann", "\uff21nn"),                  # a fullwidth A (compatibility form)
    ("Strasse", "STRASSE"),
    ("paypal", "p\u0430yp\u0430l"),       # Cyrillic a twice
])
def test_names_that_look_alike_fold_to_one_key(one: str, other: str) -> None:
    assert name_key(one) == name_key(other)


@pytest.mark.parametrize(("one", "other"), [("Ann", "Anne"), ("Ann Lee", "AnnLee"), ("Bo", "Bob")])
def test_different_names_keep_different_keys(one: str, other: str) -> None:
    assert name_key(one) != name_key(other)


def test_an_account_name_is_cleaned_and_needs_two_visible_characters() -> None:
    assert account_name("  Ann\u200b\tLee \n") == "Ann Lee"
    for bad in ("", "A", "  x  ", "\u200b\u200b", 7, None):
        with pytest.raises(RequestError) as caught:
            account_name(bad)
        assert caught.value.code == "bad_name"


def test_a_folded_name_is_taken_once(accts: Accounts) -> None:
    accts.create("Ann Lee", "long enough")
    for twin in ("ann lee", "\u0410NN  LEE"):
        with pytest.raises(RequestError) as caught:
            accts.create(twin, "long enough")
        assert caught.value.code == "name_taken"
    found = accts.by_name("ANN LEE")
    assert found is not None and found.name == "Ann Lee"


# --------------------------------------------------------------------------- passwords


def test_a_password_is_stored_as_an_argon2id_hash_and_checked(accts: Accounts, storage: Storage) -> None:
    made = accts.create("Ann Lee", "correct horse")
    with storage.engine.connect() as conn:
        stored = conn.execute(select(accounts.c.password_hash)).scalar()
    assert stored is not None and stored.startswith("$argon2id$") and "correct horse" not in stored
    ok = accts.check_password("ann lee", "correct horse")
    assert ok is not None and ok.id == made.id
    assert accts.check_password("Ann Lee", "correct hors") is None
    assert accts.check_password("Nobody", "correct horse") is None
    assert accts.verify(made.id, "correct horse") and not accts.verify(made.id, "wrong horse")


@pytest.mark.parametrize("password", ["short", "x" * 7, "x" * 257, 12345678, b"long enough"])
def test_a_password_too_short_too_long_or_not_text_is_refused(accts: Accounts, password: object) -> None:
    with pytest.raises(RequestError) as caught:
        accts.create("Ann Lee", password)  # type: ignore[arg-type]
    assert caught.value.code == "bad_password"
    assert accts.by_name("Ann Lee") is None   # nothing made


def test_the_default_argon2_parameters_hash_and_verify(storage: Storage) -> None:
    defaults = Accounts(storage)
    defaults.create("Ann Lee", "correct horse")
    with storage.engine.connect() as conn:
        stored = conn.execute(select(accounts.c.password_hash)).scalar_one()
    assert f"m={PasswordHasher().memory_cost}" in stored and f"t={PasswordHasher().time_cost}" in stored
    assert defaults.check_password("Ann Lee", "correct horse") is not None
    assert defaults.check_password("Ann Lee", "wrong horse") is None


def test_a_weaker_hash_is_replaced_on_the_next_sign_in(storage: Storage) -> None:
    Accounts(storage, hasher=CHEAP).create("Ann Lee", "correct horse")
    stronger = PasswordHasher(time_cost=2, memory_cost=8192, parallelism=1)
    assert Accounts(storage, hasher=stronger).check_password("Ann Lee", "correct horse") is not None
    with storage.engine.connect() as conn:
        stored = conn.execute(select(accounts.c.password_hash)).scalar_one()
    assert ",t=2," in stored


# --------------------------------------------------------------------------- sessions


def test_only_the_hash_of_a_session_id_is_stored(accts: Accounts, storage: Storage) -> None:
    account = accts.create("Ann Lee", "correct horse")
    token = accts.new_session(account.id)
    assert len(token) >= 43   # 256 bits
    with storage.engine.connect() as conn:
        kept = conn.execute(select(sessions.c.id_hash)).scalars().all()
    assert kept == [session_hash(token)] and token not in kept
    live = accts.session(token)
    assert live is not None and live.account.id == account.id
    assert accts.session(token[:-1] + ("A" if token[-1] != "A" else "B")) is None
    assert accts.session("") is None and accts.session("x" * 500) is None


def test_a_session_ends_after_its_idle_time_and_use_moves_it_on(accts: Accounts, storage: Storage,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock(monkeypatch)
    account = accts.create("Ann Lee", "correct horse")
    token = accts.new_session(account.id)
    clock.now += SESSION_IDLE - 3600       # used a day before it would end: it goes on
    assert accts.session(token) is not None
    clock.now += SESSION_IDLE - 3600
    assert accts.session(token) is not None
    clock.now += SESSION_IDLE + 1           # unused for longer than the idle time: ended, and gone
    assert accts.session(token) is None
    with storage.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(sessions)).scalar() == 0


def test_an_old_session_is_rotated_to_a_new_id(accts: Accounts, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock(monkeypatch)
    account = accts.create("Ann Lee", "correct horse")
    token = accts.new_session(account.id)
    young = accts.session(token, rotate=True)
    assert young is not None and young.rotated is None
    clock.now += SESSION_ROTATE + 1
    old = accts.session(token, rotate=True)
    assert old is not None and old.rotated is not None and old.rotated != token
    assert old.account.id == account.id
    assert accts.session(token) is None                # the old id no longer signs in
    fresh = accts.session(old.rotated, rotate=True)
    assert fresh is not None and fresh.rotated is None


def test_signing_out_everywhere_ends_every_session_of_the_account_only(accts: Accounts) -> None:
    ann = accts.create("Ann Lee", "correct horse")
    bob = accts.create("Bob", "battery staple")
    mine = [accts.new_session(ann.id) for _ in range(3)]
    his = accts.new_session(bob.id)
    assert accts.end_sessions(ann.id) == 3
    assert all(accts.session(t) is None for t in mine)
    assert accts.session(his) is not None


def test_a_disabled_account_cannot_sign_in_and_its_sessions_end(accts: Accounts) -> None:
    ann = accts.create("Ann Lee", "correct horse")
    token = accts.new_session(ann.id)
    accts.set_disabled(ann.id, True)
    assert accts.session(token) is None
    assert accts.check_password("Ann Lee", "correct horse") is None
    accts.set_disabled(ann.id, False)
    assert accts.session(token) is None   # ended, not only paused
    assert accts.check_password("Ann Lee", "correct horse") is not None


# --------------------------------------------------------------------------- deletion


def _game_with_seat(storage: Storage, game_id: str, account_id: int, status: str = "playing") -> None:
    storage.create(game_id, {"edition": "2020", "seats": [{"kind": "human"}, {"kind": "human"}]}, [],
                   [SeatRow(0, "human", None, "Ann Lee", "ab" * 32, True, account_id),
                    SeatRow(1, "human", None, "Bob", "cd" * 32, True, None)])
    if status != "playing":
        with storage.engine.begin() as conn:
            conn.execute(games.update().where(games.c.id == game_id).values(status=status))


def test_deleting_an_account_removes_its_personal_data_and_renames_its_seats(
        accts: Accounts, storage: Storage) -> None:
    ann = accts.create("Ann Lee", "correct horse")
    bob = accts.create("Bob", "battery staple")
    token = accts.new_session(ann.id)
    bobs = accts.new_session(bob.id)
    with storage.engine.begin() as conn:
        conn.execute(insert(passkeys).values(credential_id="cred", account_id=ann.id, public_key="pk",
                                             sign_count=0, transports=None, created=time.time()))
    _game_with_seat(storage, "on", ann.id)
    _game_with_seat(storage, "done", ann.id, status="over")
    assert accts.delete(ann.id) == ["on"]          # the games in play, for the server to update
    with storage.engine.connect() as conn:
        row = conn.execute(select(accounts).where(accounts.c.id == ann.id)).one()
        assert (row.name, row.name_key, row.password_hash, row.deleted) == (DELETED_NAME, None, None, True)
        assert conn.execute(select(func.count()).select_from(passkeys)).scalar() == 0
        assert conn.execute(select(sessions.c.account_id)).scalars().all() == [bob.id]
    assert accts.session(token) is None and accts.session(bobs) is not None
    assert accts.by_name("Ann Lee") is None
    assert accts.check_password("Ann Lee", "correct horse") is None
    for game_id in ("on", "done"):
        stored = storage.load(game_id)
        assert stored is not None
        assert [(s.name, s.account_id) for s in stored.seats] == [(DELETED_NAME, ann.id), ("Bob", None)]
    again = accts.create("Ann Lee", "another horse")   # the name is free again, for someone else
    assert again.id != ann.id


# --------------------------------------------------------------------------- the limits


def test_a_failure_limit_refuses_a_full_key_until_its_oldest_failure_is_old(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from huntgather.server import routes_accounts
    now = [1000.0]
    monkeypatch.setattr(routes_accounts.time, "monotonic", lambda: now[0])
    limit = FailureLimit(3, 60.0)
    for _ in range(3):
        assert not limit.blocked("k")
        limit.failed("k")
        now[0] += 1
    assert limit.blocked("k") == pytest.approx(57.0) and not limit.blocked("other")
    now[0] += 57
    assert not limit.blocked("k")


# --------------------------------------------------------------------------- huntgather admin


def test_the_admin_command_lists_resets_disables_enables_and_deletes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    db = str(tmp_path / "games.sqlite")
    storage = Storage(db)
    accts = Accounts(storage, hasher=CHEAP)
    ann = accts.create("Ann Lee", "correct horse")
    accts.create("Bob", "battery staple")
    token = accts.new_session(ann.id)
    monkeypatch.setattr(accounts_module, "PasswordHasher", lambda: CHEAP)

    assert cli_main(["admin", "list", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "Ann Lee" in out and "Bob" in out and "2 accounts" in out

    assert cli_main(["admin", "reset-password", "ann lee", "--db", db]) == 0
    new = capsys.readouterr().out.strip()
    assert len(new) >= 16
    assert accts.check_password("Ann Lee", new) is not None
    assert accts.check_password("Ann Lee", "correct horse") is None
    assert accts.session(token) is None

    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("chosen password\n"))
    assert cli_main(["admin", "reset-password", "Bob", "--stdin", "--db", db]) == 0
    assert "chosen password" not in capsys.readouterr().out
    assert accts.check_password("Bob", "chosen password") is not None

    assert cli_main(["admin", "disable", "Bob", "--db", db]) == 0
    assert accts.check_password("Bob", "chosen password") is None
    assert cli_main(["admin", "enable", "Bob", "--db", db]) == 0
    assert accts.check_password("Bob", "chosen password") is not None

    assert cli_main(["admin", "delete", "Ann Lee", "--db", db]) == 0
    found = accts.by_id(ann.id)
    assert found is not None and found.deleted and found.name == DELETED_NAME
    assert cli_main(["admin", "delete", "Ann Lee", "--db", db]) == 1   # no such name any more
    assert "no account is named" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("short\n"))
    assert cli_main(["admin", "reset-password", "Bob", "--stdin", "--db", db]) == 2
    with storage.engine.connect() as conn:
        kinds = conn.execute(select(accounts.c.kind)).scalars().all()
    assert kinds == [AccountKind.PERSON] * 2
    storage.close()
