// notifications.js: the server's VAPID key as bytes, the address's line on the account screen,
// and account.js's words for the new error codes.
import "./english.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { errorWords } from "../../src/huntgather/web/js/account.js";
import { emailState, pushUsable, urlBytes } from "../../src/huntgather/web/js/notifications.js";

test("a base64url key becomes its bytes (padding and URL-safe letters)", () => {
  assert.deepEqual([...urlBytes("AQID")], [1, 2, 3]);
  assert.deepEqual([...urlBytes("-_8")], [251, 255]);
  const key = "B" + "A".repeat(86);   // an uncompressed P-256 point is 65 bytes, 87 characters
  assert.equal(urlBytes(key).length, 65);
  assert.equal(urlBytes(key)[0], 4);
});

test("the address's line says whether anything is mailed", () => {
  const s = { email: "ann@example.org", email_confirmed: false, email_on: true, push_on: false };
  assert.equal(emailState(s, false), "");
  assert.match(emailState({ ...s, email: null }, true), /No address/);
  assert.match(emailState(s, true), /Not confirmed yet: open the link mailed to ann@example.org/);
  assert.match(emailState({ ...s, email_confirmed: true }, true), /Turn mails go to this address/);
  assert.match(emailState({ ...s, email_confirmed: true, email_on: false }, true), /Turn mails are off/);
});

test("without a browser, push is not offered; the new error codes are said in plain words", () => {
  assert.equal(pushUsable(), false);
  assert.match(errorWords({ code: "bad_email", message: "x" }), /not an email address/);
  assert.match(errorWords({ code: "mail_off", message: "x" }), /sends no mail/);
  assert.match(errorWords({ code: "too_many_subscriptions", message: "x" }), /too many browsers/);
});
