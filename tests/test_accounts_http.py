"""Accounts over HTTP and the websocket, as an attacker would try them.

Session fixation, cross-site requests on every change, the cookie's flags, one argon2
verification per sign-in whether the name exists or not, guessing limited per name and per
address, deleted and disabled accounts, and a second device holding its account's seats with
only the cookie.  The app runs in Starlette's test client with cheap argon2 parameters and a
hasher that counts its verifications (no timing is measured).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("argon2")

with warnings.catch_warnings():   # starlette's notice about httpx versions
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from app_helpers import PASSWORD, CountingHasher, device, make_app, recv, sign_up
from sqlalchemy import select
from starlette.applications import Starlette

from huntgather.server.account_tables import accounts, sessions
from huntgather.server.accounts import DELETED_NAME, Accounts
from huntgather.server.auth import COOKIE
from huntgather.server.storage import Storage, games, seats

TWO = {"seats": [{"kind": "human"}, {"kind": "human"}], "short": 6}


@pytest.fixture
def app() -> Starlette:
    return make_app()


@pytest.fixture
def client(app: Starlette) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def hasher(app: Starlette) -> CountingHasher:
    h: CountingHasher = app.state.accounts.hasher
    return h


def storage(app: Starlette) -> Storage:
    s: Storage = app.state.storage
    return s


def sign_in(c: TestClient, name: str = "Ann Lee", password: str = PASSWORD, **kw: Any) -> Any:
    return c.post("/api/session", json={"name": name, "password": password}, **kw)


def cookie_header(response: Any) -> str:
    found = [v for k, v in response.headers.multi_items() if k == "set-cookie" and v.startswith(COOKIE + "=")]
    assert len(found) == 1, response.headers
    text: str = found[0]
    return text


def token_of(response: Any) -> str:
    return cookie_header(response).split(";")[0].split("=", 1)[1]


def with_token(c: TestClient, token: str) -> TestClient:
    c.cookies.clear()
    c.cookies.set(COOKIE, token)
    return c


def state(app: Starlette) -> tuple[Any, ...]:
    """Everything a change could change: accounts (with password hashes), sessions, games, seats."""
    with storage(app).engine.connect() as conn:
        return (conn.execute(select(accounts).order_by(accounts.c.id)).all(),
                sorted(conn.execute(select(sessions.c.id_hash, sessions.c.account_id)).all()),
                sorted(conn.execute(select(games.c.id, games.c.ply)).all()),
                sorted(conn.execute(select(seats)).all()))


# --------------------------------------------------------------------------- the cookie


def test_the_session_cookie_is_http_only_lax_and_for_the_whole_site(client: TestClient) -> None:
    r = client.post("/api/accounts", json={"name": "Ann Lee", "password": PASSWORD})
    flags = [f.strip().lower() for f in cookie_header(r).split(";")[1:]]
    assert "httponly" in flags and "samesite=lax" in flags and "path=/" in flags
    assert "secure" not in flags   # plain http: a Secure cookie would never come back
    assert len(token_of(r)) >= 43
    assert r.headers["cache-control"] == "no-store"


def test_over_https_the_cookie_is_secure(app: Starlette) -> None:
    with device(app, base_url="https://testserver") as c:
        r = c.post("/api/accounts", json={"name": "Ann Lee", "password": PASSWORD})
        assert r.status_code == 201
        assert "secure" in [f.strip().lower() for f in cookie_header(r).split(";")]


def test_behind_a_trusted_proxy_saying_https_the_cookie_is_secure_and_the_origin_is_https(
        app: Starlette) -> None:
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
    proxied = ProxyHeadersMiddleware(app, trusted_hosts="*")   # as --forwarded-allow-ips='*'
    with TestClient(proxied) as c:   # type: ignore[arg-type]
        https = {"x-forwarded-proto": "https", "origin": "https://testserver"}
        r = c.post("/api/accounts", json={"name": "Ann Lee", "password": PASSWORD}, headers=https)
        assert r.status_code == 201, r.text
        assert "secure" in [f.strip().lower() for f in cookie_header(r).split(";")]
        # the page was https: the same host over plain http is another origin
        r = c.post("/api/accounts", json={"name": "Bob Ray", "password": PASSWORD},
                   headers={"x-forwarded-proto": "https", "origin": "http://testserver"})
        assert r.status_code == 403 and r.json()["code"] == "cross_site"


# --------------------------------------------------------------------------- session fixation


def test_signing_in_ends_the_session_presented_and_makes_a_new_id(app: Starlette, client: TestClient) -> None:
    sign_up(client)                     # Ann
    mallory = device(app)   # (not entered: the app's lifespan is the fixture's)
    sign_up(mallory, "Mallory")
    planted = mallory.cookies[COOKIE]
    with_token(client, planted)         # Mallory's session id, planted in Ann's browser
    r = sign_in(client)
    assert r.status_code == 200 and r.json()["account"]["name"] == "Ann Lee"
    fresh = token_of(r)
    assert fresh != planted
    assert with_token(client, planted).get("/api/me").status_code == 401   # ended: it signs in nobody
    me = with_token(client, fresh).get("/api/me")
    assert me.status_code == 200 and me.json()["account"]["name"] == "Ann Lee"


def test_a_made_up_session_id_is_never_adopted(client: TestClient) -> None:
    sign_up(client)
    with_token(client, "chosen-by-the-attacker")
    r = sign_in(client)
    assert r.status_code == 200 and token_of(r) != "chosen-by-the-attacker"
    assert with_token(client, "chosen-by-the-attacker").get("/api/me").status_code == 401


def test_signing_in_twice_gives_two_ids(app: Starlette, client: TestClient) -> None:
    sign_up(client)
    first = token_of(sign_in(client))
    second = token_of(sign_in(client))
    assert first != second
    assert with_token(client, first).get("/api/me").status_code == 401   # the one presented was ended


# --------------------------------------------------------------------------- cross-site requests


Change = Callable[[TestClient, dict[str, str]], Any]


def _changes(made: dict[str, Any]) -> dict[str, tuple[str, str, dict[str, Any] | None]]:
    """Every state-changing endpoint: method, path and a JSON body that would do something."""
    return {
        "new game": ("POST", "/api/games", TWO),
        "delete game": ("DELETE", f"/api/games/{made['id']}", None),
        "sign up": ("POST", "/api/accounts", {"name": "Eve Bad", "password": PASSWORD}),
        "sign in": ("POST", "/api/session", {"name": "Ann Lee", "password": PASSWORD}),
        "sign out": ("DELETE", "/api/session", None),
        "sign out everywhere": ("DELETE", "/api/sessions", None),
        "new password": ("PUT", "/api/me/password", {"old": PASSWORD, "new": "stolen password"}),
        "delete account": ("DELETE", "/api/me", {"password": PASSWORD}),
    }


CROSS_SITE = [
    {"origin": "https://evil.example"},
    {"origin": "http://testserver.evil.example"},
    {"origin": "https://testserver"},            # the same host over another scheme: another origin
    {"origin": "http://testserver:8080"},         # another port: another origin
    {"origin": "null"},                           # a sandboxed frame, a redirect across sites
    {"sec-fetch-site": "cross-site"},
    {"sec-fetch-site": "cross-site", "origin": "http://testserver"},
]


@pytest.mark.parametrize("headers", CROSS_SITE, ids=lambda h: ",".join(f"{k}={v}" for k, v in h.items()))
def test_every_change_from_another_site_is_refused_and_changes_nothing(
        app: Starlette, client: TestClient, headers: dict[str, str]) -> None:
    sign_up(client)
    made = client.post("/api/games", json=TWO).json()
    auth = {"authorization": f"Bearer {made['creator']}"}
    before = state(app)
    for what, (method, path, body) in _changes(made).items():
        r = client.request(method, path, json=body, headers={**headers, **auth})
        assert r.status_code == 403, (what, r.status_code, r.text)
        assert r.json()["code"] == "cross_site", what
        assert "set-cookie" not in r.headers, what
    assert state(app) == before
    assert client.get("/api/me").status_code == 200   # still signed in


@pytest.mark.parametrize("what", ["new game", "sign up", "sign in", "new password", "delete account"])
def test_a_form_posted_from_anywhere_is_refused_and_changes_nothing(
        app: Starlette, client: TestClient, what: str) -> None:
    sign_up(client)
    made = client.post("/api/games", json=TWO).json()
    method, path, body = _changes(made)[what]
    assert body is not None
    before = state(app)
    # a form (what another site can post without script), even from an old browser that sends
    # no Origin: the routes take JSON only
    r = client.request(method, path, data={k: str(v) for k, v in body.items()},
                       headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415 and r.json()["code"] == "bad_content_type"
    r = client.request(method, path, content=b"name=Eve&password=x", headers={"content-type": "text/plain"})
    assert r.status_code == 415
    assert state(app) == before


def test_this_servers_own_pages_and_allowed_origins_may_change(app: Starlette, client: TestClient) -> None:
    own = {"origin": "http://testserver", "sec-fetch-site": "same-origin"}
    assert client.post("/api/accounts", json={"name": "Ann Lee", "password": PASSWORD},
                       headers=own).status_code == 201
    assert client.post("/api/games", json=TWO, headers=own).status_code == 201
    assert client.post("/api/games", json=TWO, headers={"sec-fetch-site": "same-site"}).status_code == 201
    allowing = make_app(allowed_origins=("https://games.example.org",))
    with TestClient(allowing) as c:
        for origin, status in [("https://games.example.org", 201), ("https://evil.example", 403)]:
            assert c.post("/api/games", json=TWO, headers={"origin": origin}).status_code == status


def test_reading_is_not_refused_from_another_site(client: TestClient) -> None:
    r = client.get("/api/editions",
                   headers={"origin": "https://evil.example", "sec-fetch-site": "cross-site"})
    assert r.status_code == 200


# --------------------------------------------------------------------------- guessing


def test_a_known_and_an_unknown_name_each_cost_one_verification(app: Starlette, client: TestClient) -> None:
    sign_up(client, "Ann Lee")
    count = hasher(app)
    answers = []
    for name, password in [("Ann Lee", "wrong horse"), ("Nobody Here", "wrong horse"),
                           ("Nobody Here", PASSWORD), ("Ann Lee", PASSWORD)]:
        before = count.verified
        r = sign_in(device(app), name, password)
        assert count.verified - before == 1, (name, password)
        answers.append((r.status_code, r.json()))
    assert answers[0] == answers[1] == answers[2]   # an unknown name is answered as a wrong password
    assert answers[0][0] == 401 and answers[0][1]["code"] == "bad_login"
    assert answers[3][0] == 200


def test_two_hundred_guesses_from_one_address_check_only_the_first_few(app: Starlette,
                                                                       client: TestClient) -> None:
    sign_up(client, "Ann Lee")
    sign_up(device(app, "10.0.0.9"), "Bob Ray")
    count = hasher(app)
    count.verified = 0
    limits = app.state.sign_in_limits
    per_name, per_address = limits.names.count, limits.addresses.count
    attacker = device(app, "203.0.113.7")
    codes = [sign_in(attacker, "ann lee", f"guess {i}").status_code for i in range(200)]
    assert codes[:per_name] == [401] * per_name
    assert codes[per_name:] == [429] * (200 - per_name)
    assert count.verified == per_name                       # the rest were never checked
    limited = sign_in(attacker, "Ann Lee", PASSWORD)         # the right password, while limited
    assert limited.status_code == 429 and limited.json()["code"] == "too_many_attempts"
    assert int(limited.headers["retry-after"]) > 0 and "set-cookie" not in limited.headers
    # ... from anywhere: the name is limited, not only the address
    assert sign_in(device(app, "198.51.100.1"), "Ann Lee", PASSWORD).status_code == 429
    # an unknown name is limited alike (429 says nothing of whether it exists)
    unknown = [sign_in(attacker, "Nobody Here", f"guess {i}") for i in range(per_name + 1)]
    assert [r.status_code for r in unknown] == [401] * per_name + [429]
    assert unknown[-1].json() == limited.json()
    # many names from the one address: its own limit
    spread = [sign_in(attacker, f"Name {i}", "guess").status_code for i in range(per_address)]
    checked = per_address - 2 * per_name
    assert spread == [401] * checked + [429] * (per_address - checked)
    assert count.verified == per_address
    assert sign_in(attacker, "Bob Ray", PASSWORD).status_code == 429   # right, but from that address
    assert sign_in(device(app, "10.0.0.9"), "Bob Ray", PASSWORD).status_code == 200


def test_new_accounts_from_one_address_are_limited(app: Starlette) -> None:
    allowed = app.state.sign_in_limits.sign_ups.count
    c = device(app, "203.0.113.8")
    codes = [c.post("/api/accounts", json={"name": f"Player {i}", "password": PASSWORD}).status_code
             for i in range(allowed + 2)]
    assert codes == [201] * allowed + [429] * 2
    assert device(app, "203.0.113.9").post("/api/accounts", json={"name": "Other One", "password": PASSWORD}
                                           ).status_code == 201


def test_bad_names_and_passwords_and_taken_names_are_answered_by_code(client: TestClient) -> None:
    sign_up(client, "Ann Lee")
    for body, status, code in [
        ({"name": "A", "password": PASSWORD}, 400, "bad_name"),
        ({"name": "Ann Too", "password": "short"}, 400, "bad_password"),
        ({"name": "ANN  lee", "password": PASSWORD}, 409, "name_taken"),
        ({"name": "\u0410nn Lee", "password": PASSWORD}, 409, "name_taken"),   # a Cyrillic A
        ({"name": ["Ann"], "password": PASSWORD}, 400, "bad_request"),
        ({"password": PASSWORD}, 400, "bad_request"),
        ([], 400, "bad_request"),
    ]:
        r = device(client.app).post("/api/accounts", json=body)  # type: ignore[arg-type]
        assert (r.status_code, r.json()["code"]) == (status, code), body
    r = client.post("/api/session", content=b"{", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["code"] == "bad_json"


# --------------------------------------------------------------------------- sessions ending


def test_signing_out_here_and_everywhere(app: Starlette, client: TestClient) -> None:
    sign_up(client)
    phone, tablet = device(app), device(app)
    assert sign_in(phone).status_code == 200 and sign_in(tablet).status_code == 200
    r = phone.delete("/api/session")
    assert r.status_code == 204 and "max-age=0" in cookie_header(r).lower()
    assert phone.get("/api/me").status_code == 401
    assert tablet.get("/api/me").status_code == 200 and client.get("/api/me").status_code == 200
    assert tablet.delete("/api/sessions").status_code == 204
    assert tablet.get("/api/me").status_code == 401 and client.get("/api/me").status_code == 401
    assert tablet.delete("/api/sessions").json()["code"] == "signed_out"


def test_a_new_password_needs_the_old_one_and_signs_out_the_other_devices(
        app: Starlette, client: TestClient) -> None:
    sign_up(client)
    other = device(app)
    sign_in(other)
    assert client.put("/api/me/password", json={"new": "new password"}).status_code == 400
    wrong = client.put("/api/me/password", json={"old": "wrong horse", "new": "new password"})
    assert wrong.status_code == 403 and wrong.json()["code"] == "wrong_password"
    short = client.put("/api/me/password", json={"old": PASSWORD, "new": "short"})
    assert short.json()["code"] == "bad_password"
    r = client.put("/api/me/password", json={"old": PASSWORD, "new": "new password"})
    assert r.status_code == 204 and token_of(r)
    assert client.get("/api/me").status_code == 200          # this device goes on, with a new id
    assert other.get("/api/me").status_code == 401           # the others are signed out
    assert sign_in(device(app)).status_code == 401
    assert sign_in(device(app), password="new password").status_code == 200


def test_a_deleted_accounts_sessions_and_password_stop_working(app: Starlette, client: TestClient) -> None:
    ann = sign_up(client)
    other = device(app)
    sign_in(other)
    made = client.post("/api/games", json=TWO).json()
    kept = client.cookies[COOKIE]
    assert client.request("DELETE", "/api/me", json={"password": "wrong horse"}).status_code == 403
    assert client.delete("/api/me").status_code == 415          # the password is needed (as JSON)
    assert client.get("/api/me").status_code == 200
    r = client.request("DELETE", "/api/me", json={"password": PASSWORD})
    assert r.status_code == 204 and "max-age=0" in cookie_header(r).lower()
    assert with_token(client, kept).get("/api/me").status_code == 401
    assert other.get("/api/me").status_code == 401
    login = sign_in(device(app))
    assert login.status_code == 401 and login.json()["code"] == "bad_login"
    listed = client.get(f"/api/games?ids={made['id']}").json()["games"][0]
    assert listed["players"][0]["name"] == DELETED_NAME
    with storage(app).engine.connect() as conn:
        row = conn.execute(select(accounts).where(accounts.c.id == ann["id"])).one()
    assert row.password_hash is None and row.name_key is None and row.deleted
    assert sign_up(device(app))["id"] != ann["id"]   # the name is free again


def test_a_disabled_accounts_session_is_refused(app: Starlette, client: TestClient) -> None:
    ann = sign_up(client)
    app.state.accounts.set_disabled(ann["id"], True)
    assert client.get("/api/me").status_code == 401
    assert client.post("/api/games", json={**TWO, "rated": True}).json()["code"] == "sign_in_required"
    assert sign_in(device(app)).json()["code"] == "bad_login"
    app.state.accounts.set_disabled(ann["id"], False)
    assert sign_in(device(app)).status_code == 200


# --------------------------------------------------------------------------- games and accounts


def test_a_rated_game_needs_a_session(app: Starlette, client: TestClient) -> None:
    before = state(app)
    r = client.post("/api/games", json={**TWO, "rated": True})
    assert r.status_code == 401 and r.json()["code"] == "sign_in_required"
    assert state(app) == before
    ann = sign_up(client)
    r = client.post("/api/games", json={**TWO, "rated": True})
    assert r.status_code == 201
    stored = storage(app).load(r.json()["id"])
    assert stored is not None and stored.setup["rated"] is True
    assert [(s.account_id, s.name) for s in stored.seats] == [(ann["id"], "Ann Lee"), (None, None)]


def test_the_creators_account_takes_the_first_person_seat_under_its_name_unless_named(
        app: Starlette, client: TestClient) -> None:
    ann = sign_up(client)
    # the person at seat 1 starts: the bot at seat 0 makes no move (no write) while the test
    # reads the one connection of the database in memory
    setup = {"seats": [{"kind": "bot", "level": "random"}, {"kind": "human", "name": "Annie"},
                       {"kind": "human"}], "start_player": 1}
    made = client.post("/api/games", json=setup).json()
    stored = storage(app).load(made["id"])
    assert stored is not None
    assert [(s.account_id, s.name) for s in stored.seats] == \
        [(None, None), (ann["id"], "Annie"), (None, None)]
    guest = device(app).post("/api/games", json=TWO).json()
    stored = storage(app).load(guest["id"])
    assert stored is not None and all(s.account_id is None for s in stored.seats)


def test_me_lists_the_accounts_games_with_its_turn_first(app: Starlette, client: TestClient) -> None:
    ann = sign_up(client)
    mine_to_move = client.post("/api/games", json={**TWO, "start_player": 0}).json()["id"]
    theirs_to_move = client.post("/api/games", json={**TWO, "start_player": 1}).json()["id"]
    device(app).post("/api/games", json=TWO)   # a guest's game: not Ann's
    me = client.get("/api/me").json()
    assert me["account"] == {"id": ann["id"], "name": "Ann Lee", "has_password": True, "passkeys": 0,
                             "language": "en"}
    assert me["ratings"] == {}
    assert [g["id"] for g in me["games"]] == [mine_to_move, theirs_to_move]
    first, second = me["games"]
    assert first["your_turn"] is True and second["your_turn"] is False
    assert first["seats"] == [0] and first["status"] == "playing" and first["rated"] is False
    assert first["edition"] == "2020"
    assert [(p["seat"], p["name"], p["kind"], p["score"]) for p in first["players"]] == \
        [(0, "Ann Lee", "human", 0), (1, None, "human", 0)]


# --------------------------------------------------------------------------- the websocket


def hello(ws: Any, secrets: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The ``welcome`` and the first ``table`` after saying hello with ``secrets``."""
    ws.send_json({"type": "hello", "secrets": secrets})
    welcome = recv(ws, "welcome")
    return welcome, recv(ws, "table")


def test_a_second_device_holds_the_accounts_seats_with_only_the_cookie(app: Starlette,
                                                                      client: TestClient) -> None:
    sign_up(client)
    made = client.post("/api/games", json={**TWO, "start_player": 0}).json()
    gid = made["id"]
    phone = device(app)
    sign_in(phone)
    with phone.websocket_connect(f"/ws/{gid}") as ws:
        welcome, table = hello(ws, [])
        assert welcome["seats"] == [0] and welcome["creator"] is False
        assert table["seats"][0]["online"] and table["seats"][0]["name"] == "Ann Lee"
        view = recv(ws, "snapshot")
        ws.send_json({"type": "preview", "request": 1, "seat": 0, "version": view["version"],
                      "moves": [view["legal"][0]]})
        assert recv(ws, "preview", "error")["type"] == "preview"   # it may play the seat
    with device(app).websocket_connect(f"/ws/{gid}") as ws:   # a guest, no secret: a watcher
        welcome, table = hello(ws, [])
        assert welcome["seats"] == []
        assert [seat["account"] for seat in table["seats"]] == [True, False]
    with phone.websocket_connect(f"/ws/{gid}") as ws:   # the seat goes by the account's name
        hello(ws, [])
        ws.send_json({"type": "name", "request": 2, "seat": 0, "name": "Someone Else"})
        assert recv(ws, "ack", "error")["code"] == "account_seat"
    stored = storage(app).load(gid)
    assert stored is not None and stored.seats[0].name == "Ann Lee"
    signed_out = device(app)
    with_token(signed_out, phone.cookies[COOKIE])
    phone.delete("/api/session")
    with signed_out.websocket_connect(f"/ws/{gid}") as ws:     # an ended session holds nothing
        assert hello(ws, [])[0]["seats"] == []


def test_a_seat_opened_by_its_secret_is_claimed_by_the_signed_in_account(
        app: Starlette, client: TestClient) -> None:
    sign_up(client)
    made = client.post("/api/games", json=TWO).json()
    gid = made["id"]
    bob_page = device(app)
    bob = sign_up(bob_page, "Bob Ray")
    with bob_page.websocket_connect(f"/ws/{gid}") as ws:
        welcome, table = hello(ws, [made["seats"]["1"]])
        assert welcome["seats"] == [1]
        assert table["seats"][1]["name"] == "Bob Ray"   # the seat's new name, to every page
    stored = storage(app).load(gid)
    assert stored is not None and stored.seats[1].account_id == bob["id"]
    bob_phone = device(app)
    sign_in(bob_phone, "Bob Ray")
    with bob_phone.websocket_connect(f"/ws/{gid}") as ws:
        assert hello(ws, [])[0]["seats"] == [1]
    me = bob_phone.get("/api/me").json()
    assert [(g["id"], g["seats"]) for g in me["games"]] == [(gid, [1])]


def test_a_guest_holding_a_secret_claims_nothing_and_a_hotseat_creator_claims_only_its_seat(
        app: Starlette, client: TestClient) -> None:
    ann = sign_up(client)
    made = client.post("/api/games", json={"seats": [{"kind": "human"}] * 3, "short": 6}).json()
    gid = made["id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:   # the creator's page before it hands links out
        welcome, _ = hello(ws, [made["creator"], *made["seats"].values()])
        assert welcome["seats"] == [0, 1, 2] and welcome["creator"]
    with device(app).websocket_connect(f"/ws/{gid}") as ws:   # a guest
        assert hello(ws, [made["seats"]["2"]])[0]["seats"] == [2]
    stored = storage(app).load(gid)
    assert stored is not None
    assert [s.account_id for s in stored.seats] == [ann["id"], None, None]


def test_in_a_rated_game_an_account_claims_no_second_seat(app: Starlette, client: TestClient) -> None:
    ann = sign_up(client)
    made = client.post("/api/games", json={**TWO, "rated": True}).json()
    gid = made["id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:   # Ann opens the other seat's link herself
        assert hello(ws, [made["seats"]["1"]])[0]["seats"] == [0, 1]
    stored = storage(app).load(gid)
    assert stored is not None and [s.account_id for s in stored.seats] == [ann["id"], None]
    bob_page = device(app)
    bob = sign_up(bob_page, "Bob Ray")
    with bob_page.websocket_connect(f"/ws/{gid}") as ws:
        assert hello(ws, [made["seats"]["1"]])[0]["seats"] == [1]
    stored = storage(app).load(gid)
    assert stored is not None and [s.account_id for s in stored.seats] == [ann["id"], bob["id"]]


def test_a_deleted_accounts_game_goes_on_under_deleted_player(app: Starlette, client: TestClient) -> None:
    sign_up(client)
    made = client.post("/api/games", json={**TWO, "start_player": 0}).json()
    gid = made["id"]
    with device(app).websocket_connect(f"/ws/{gid}") as watcher, \
            device(app).websocket_connect(f"/ws/{gid}") as holder:
        hello(watcher, [])
        assert hello(holder, [made["seats"]["0"]])[0]["seats"] == [0]   # a guest page with the link
        assert client.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 204
        while (table := recv(watcher, "table"))["seats"][0]["name"] != DELETED_NAME:
            pass
        view = client.get(f"/api/games/{gid}").json()
        holder.send_json({"type": "preview", "request": 1, "seat": 0, "version": view["version"],
                          "moves": [view["legal"][0]]})
        assert recv(holder, "preview", "error")["type"] == "preview"   # the secret still plays it
    assert table["seats"][0]["kind"] == "human"


# --------------------------------------------------------------------------- more of the account


def test_an_old_session_gets_a_new_id_from_me_and_the_old_one_stops(
        app: Starlette, client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from huntgather.server import accounts as accounts_module
    from huntgather.server.accounts import SESSION_ROTATE
    sign_up(client)
    old = client.cookies[COOKIE]
    assert "set-cookie" not in client.get("/api/me").headers     # a young session keeps its id
    later = accounts_module.time.time() + SESSION_ROTATE + 60
    monkeypatch.setattr(accounts_module.time, "time", lambda: later)
    r = client.get("/api/me")
    assert r.status_code == 200
    new = token_of(r)
    assert new != old and "httponly" in cookie_header(r).lower()
    assert with_token(device(app), old).get("/api/me").status_code == 401
    assert with_token(device(app), new).get("/api/me").status_code == 200


def test_wrong_present_passwords_are_limited_too(app: Starlette, client: TestClient) -> None:
    sign_up(client)
    count = hasher(app)
    per_name = app.state.sign_in_limits.names.count
    before = count.verified
    codes = [client.put("/api/me/password", json={"old": f"guess {i}", "new": "new password"}).status_code
             for i in range(per_name + 5)]
    assert codes == [403] * per_name + [429] * 5
    assert count.verified - before == per_name
    right = client.put("/api/me/password", json={"old": PASSWORD, "new": "new password"})
    assert right.status_code == 429
    assert client.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 429
    assert client.get("/api/me").status_code == 200    # nothing changed


def test_an_account_with_no_password_is_deleted_by_its_session_alone(app: Starlette,
                                                                    client: TestClient) -> None:
    accts: Accounts = app.state.accounts
    made = accts.create("Pat Key")           # as a passkey sign-up makes it
    with_token(client, accts.new_session(made.id))
    me = client.get("/api/me").json()
    assert me["account"] == {"id": made.id, "name": "Pat Key", "has_password": False, "passkeys": 0,
                             "language": "en"}
    assert client.delete("/api/me").status_code == 204
    found = accts.by_id(made.id)
    assert found is not None and found.deleted


def test_me_shows_the_ratings_stored(app: Starlette, client: TestClient) -> None:
    from huntgather.server.account_tables import ratings
    ann = sign_up(client)
    with storage(app).engine.begin() as conn:
        conn.execute(ratings.insert().values(account_id=ann["id"], edition="2020", mu=31.5, sigma=2.25,
                                             games=40, wins=17))
        conn.execute(ratings.insert().values(account_id=ann["id"], edition="2002", mu=25.0, sigma=7.0,
                                             games=2, wins=0))
    shown = client.get("/api/me").json()["ratings"]
    assert set(shown) == {"2020", "2002"}
    assert {k: shown["2020"][k] for k in ("mu", "sigma", "games", "wins", "provisional")} == \
        {"mu": 31.5, "sigma": 2.25, "games": 40, "wins": 17, "provisional": False}
    assert shown["2002"]["provisional"] is True
    assert isinstance(shown["2020"]["rating"], int) and shown["2020"]["rating"] > shown["2002"]["rating"]


def test_every_changing_route_of_the_app_refuses_another_sites_page(app: Starlette,
                                                                   client: TestClient) -> None:
    from starlette.routing import Route
    changes = [(method, re.sub(r"\{[^}]+\}", "x", route.path))
               for route in app.routes if isinstance(route, Route)
               for method in sorted((route.methods or set()) - {"GET", "HEAD", "OPTIONS"})]
    assert ("POST", "/api/games") in changes and ("DELETE", "/api/me") in changes   # routes found
    for method, path in changes:   # a route added later (passkeys, ratings) is covered too
        r = client.request(method, path, json={}, headers={"origin": "https://evil.example"})
        assert (r.status_code, r.json()["code"]) == (403, "cross_site"), (method, path)
