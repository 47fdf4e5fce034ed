"""The page's entry module sent as one file with its imports (huntgather.server.client_bundle), and
the modules one by one without esbuild or with ``--no-bundle``.  The page itself, bundled, is what
every browser test loads; ``test_web_ui.py`` loads it both ways."""

from __future__ import annotations

import gzip
import logging
import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
with warnings.catch_warnings():   # starlette's notice about httpx versions
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from huntgather.server import create_app
from huntgather.server.app import web_dir
from huntgather.server.client_bundle import ESBUILD_VARIABLE, client_bundle, esbuild_program

WEB = Path(web_dir())
ENTRY = (WEB / "app.js").read_bytes()


@pytest.fixture(autouse=True)
def _bundled_afresh() -> Iterator[None]:
    """Each test bundles for itself (the bundle is made once per process), and leaves none made."""
    client_bundle.cache_clear()
    yield
    client_bundle.cache_clear()


def serve(bundle_client: bool = True) -> TestClient:
    return TestClient(create_app("sqlite://", bot_delay=0.0, bundle_client=bundle_client))


def test_the_entry_module_comes_with_every_module_it_imports_compressed_once_and_revalidated() -> None:
    if esbuild_program() is None:
        pytest.skip("esbuild is not installed (Debian's package esbuild; scripts/test.sh installs it)")
    with serve() as client:
        r = client.get("/static/app.js", headers={"accept-encoding": "gzip"})
        assert r.status_code == 200
        assert r.headers["content-type"] == "text/javascript; charset=utf-8"
        assert r.headers["content-encoding"] == "gzip" and r.headers["cache-control"] == "no-cache"
        body = r.content   # (httpx has undone the gzip)
        bundle = client_bundle(str(WEB))
        assert bundle is not None and body == bundle.body and gzip.decompress(bundle.gzipped) == body
        # every module of the page is in it, once, under its own name, and nothing is left to import
        named = re.findall(r"^// (\S+\.js)$", body.decode(), flags=re.M)
        assert sorted(named) == sorted(["app.js", *(f"js/{p.name}" for p in (WEB / "js").glob("*.js"))])
        assert not re.search(r"^\s*(import|export)\b", body.decode(), flags=re.M)
        # not minified: each module's code as written (a line of board.js, word for word)
        line = next(x for x in (WEB / "js" / "board.js").read_text().splitlines() if x.startswith("  const "))
        assert line.strip() in body.decode()
        # a reload asks whether it changed: not sent again
        again = client.get("/static/app.js", headers={"if-none-match": r.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
        # without gzip, as it is; every module is still served on its own
        plain = client.get("/static/app.js", headers={"accept-encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.content == body
        assert client.get("/static/js/board.js").status_code == 200


def test_with_no_bundle_or_no_esbuild_the_modules_come_one_by_one(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with serve(bundle_client=False) as client:   # huntgather play --no-bundle
        r = client.get("/static/app.js")
        assert r.status_code == 200 and r.content == ENTRY

    def entry_sent_as_it_is() -> str:
        """What the log says while a new server, bundling afresh, sends app.js as it is on disk."""
        client_bundle.cache_clear()
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="huntgather.server.client_bundle"), serve() as client:
            assert client.get("/static/app.js").content == ENTRY
        return caplog.text

    # no esbuild where HUNTGATHER_ESBUILD points
    monkeypatch.setenv(ESBUILD_VARIABLE, str(tmp_path / "no-such-program"))
    assert "could not bundle the page's modules" in entry_sent_as_it_is()
    # an esbuild that fails: said in the log with what it said, and the modules served as they are
    failing = tmp_path / "esbuild"
    failing.write_text("#!/bin/sh\necho 'error: something went wrong' >&2\nexit 3\n")
    failing.chmod(0o755)
    monkeypatch.setenv(ESBUILD_VARIABLE, str(failing))
    assert "exit 3: error: something went wrong" in entry_sent_as_it_is()
    # none on the PATH at all
    monkeypatch.delenv(ESBUILD_VARIABLE)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert "esbuild is not installed" in entry_sent_as_it_is()
