// passkeys.js: base64url <-> bytes, the options turned into what navigator.credentials takes and a
// credential into JSON, where the browser has no parseCreationOptionsFromJSON / toJSON of its own
// (Node has neither, so these run the module's own converters).
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  creationOptions, credentialJSON, fromBase64url, passkeysAvailable, requestOptions, toBase64url,
} from "../../src/huntgather/web/js/passkeys.js";

const bytes = (buffer) => Array.from(new Uint8Array(buffer));

test("base64url is base64 with - and _ and no padding, both ways", () => {
  // 0xfb 0xff is "+/8=" in base64
  assert.deepEqual(bytes(fromBase64url("-_8")), [0xfb, 0xff]);
  assert.equal(toBase64url(new Uint8Array([0xfb, 0xff]).buffer), "-_8");
  assert.equal(toBase64url(new TextEncoder().encode("Ann")), "QW5u");
  assert.deepEqual(bytes(fromBase64url("")), []);
  const all = new Uint8Array(256).map((_, i) => i);
  assert.deepEqual(bytes(fromBase64url(toBase64url(all))), bytes(all.buffer));
  // a view into a larger buffer gives only its own bytes
  assert.equal(toBase64url(new Uint8Array([9, 0xfb, 0xff, 9]).subarray(1, 3)), "-_8");
});

test("creation and request options get their challenge, user id and credential ids as bytes", () => {
  const made = creationOptions({ challenge: "AQID", rp: { id: "localhost", name: "H" },
    user: { id: "BAU", name: "Ann", displayName: "Ann" }, excludeCredentials: [{ type: "public-key", id: "Bg" }],
    authenticatorSelection: { residentKey: "required" } });
  assert.deepEqual(bytes(made.challenge), [1, 2, 3]);
  assert.deepEqual(bytes(made.user.id), [4, 5]);
  assert.equal(made.user.name, "Ann");
  assert.deepEqual(bytes(made.excludeCredentials[0].id), [6]);
  assert.equal(made.excludeCredentials[0].type, "public-key");
  assert.equal(made.authenticatorSelection.residentKey, "required");
  const asked = requestOptions({ challenge: "Bwg", rpId: "localhost", allowCredentials: [] });
  assert.deepEqual(bytes(asked.challenge), [7, 8]);
  assert.deepEqual(asked.allowCredentials, []);
  assert.equal(asked.rpId, "localhost");
});

test("a credential without toJSON is written as toJSON would", () => {
  const buf = (...b) => new Uint8Array(b).buffer;
  const made = credentialJSON({ id: "AQ", rawId: buf(1), type: "public-key", authenticatorAttachment: "platform",
    getClientExtensionResults: () => ({ credProps: { rk: true } }),
    response: { clientDataJSON: buf(2), attestationObject: buf(3), getTransports: () => ["internal"] } });
  assert.deepEqual(made, { id: "AQ", rawId: "AQ", type: "public-key", authenticatorAttachment: "platform",
    clientExtensionResults: { credProps: { rk: true } },
    response: { clientDataJSON: "Ag", attestationObject: "Aw", transports: ["internal"] } });
  const used = credentialJSON({ id: "AQ", rawId: buf(1), type: "public-key",
    response: { clientDataJSON: buf(2), authenticatorData: buf(4), signature: buf(5), userHandle: buf(6) } });
  assert.deepEqual(used.response, { clientDataJSON: "Ag", authenticatorData: "BA", signature: "BQ", userHandle: "Bg" });
  assert.equal(used.authenticatorAttachment, null);
  assert.deepEqual(used.clientExtensionResults, {});
  // a credential that has toJSON is asked for it
  assert.deepEqual(credentialJSON({ toJSON: () => ({ id: "x" }) }), { id: "x" });
});

test("passkeys are not available without a browser's WebAuthn", () => {
  assert.equal(passkeysAvailable(), false);
});
