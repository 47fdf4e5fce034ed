// account.js's words for the server's errors and for ratings, and a rated game's rules in the
// page's selectors (game.js): no take-backs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { read } from "./english.mjs";
import { useCatalogue } from "../../src/huntgather/web/js/i18n.js";
import { editionOrder, errorWords, ratingWords, uncertainty } from "../../src/huntgather/web/js/account.js";
import { canUndoTurn, initialState, isRated, reduce } from "../../src/huntgather/web/js/game.js";

test("the server's error codes are said in plain words; another error keeps its own message", () => {
  assert.match(errorWords({ code: "bad_login", message: "bad_login" }), /do not match an account/);
  assert.match(errorWords({ code: "name_taken", message: "x" }), /taken/);
  assert.match(errorWords({ code: "too_many_attempts", message: "x" }), /Wait a few minutes/);
  assert.match(errorWords({ code: "bad_password", message: "at least 8 characters" }), /cannot be used: at least 8/);
  assert.match(errorWords({ code: "passkey_cancelled", message: "" }), /cancelled/);
  assert.equal(errorWords({ code: "something_new", message: "the server's words" }), "the server's words");
  assert.match(errorWords(new TypeError("Failed to fetch")), /cannot be reached/);
});

test("the account's errors are the catalogue's words (one truth): in Czech, without the server's English", () => {
  useCatalogue("cs", read("cs"), read("en"));
  try {
    assert.equal(errorWords({ code: "bad_login", message: "bad_login" }), read("cs")["error.bad_login"]);
    assert.equal(errorWords({ code: "bad_password", message: "at least 8 characters" }), "Toto heslo nelze použít.");
    assert.equal(errorWords({ code: "passkey_cancelled" }), read("cs")["error.passkey_cancelled"]);
  } finally {
    useCatalogue("en", read("en"));
  }
});

test("a rating is shown with its uncertainty in rating points, and the newest edition comes first", () => {
  // the server gives the uncertainty in rating points (docs/accounts.md, Ratings); sigma is on
  // OpenSkill's scale and is not what is shown
  assert.equal(ratingWords({ rating: 1500, uncertainty: 246, mu: 25, sigma: 25 / 3 }), "1500 ± 246");
  assert.equal(uncertainty({ sigma: 2, uncertainty: 59.4 }), 59);
  assert.equal(uncertainty({ sigma: 2 }), null);
  assert.equal(ratingWords({ rating: 1523 }), "1523");
  assert.equal(ratingWords(null), "—");
  assert.deepEqual(editionOrder({ 2002: {}, 2020: {} }), ["2020", "2002"]);
  assert.deepEqual(editionOrder(undefined), []);
});

// a page alone against a bot, after its first tile: Undo turn is offered unless the game is rated
function againstABot(rated, where) {
  let s = reduce(initialState(), { type: "meta", meta: { colours: [] } });
  s = reduce(s, { type: "open", gameId: "g", mode: "play" });
  s = reduce(s, { type: "welcome", seats: [0] });
  s = reduce(s, { type: "table", table: { seats: [{ seat: 0, kind: "human" }, { seat: 1, kind: "bot", level: "easy" }],
    ...(where === "table" ? { rated } : {}) } });
  return reduce(s, { type: "snapshot", view: { version: 3, players: [], over: false,
    decision: { player: 0, phase: "place", tile: 3 }, log: [{ kind: "TilePlaced", player: 0 }],
    ...(where === "snapshot" ? { rated } : {}) } });
}

test("a rated game (said by its snapshot or its table) takes no turn back", () => {
  assert.equal(isRated(againstABot(false, "snapshot")), false);
  assert.equal(canUndoTurn(againstABot(false, "snapshot")), true);
  for (const where of ["snapshot", "table"]) {
    const s = againstABot(true, where);
    assert.equal(isRated(s), true, where);
    assert.equal(canUndoTurn(s), false, where);
  }
});
