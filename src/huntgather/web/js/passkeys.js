// Passkeys (WebAuthn): sign up, sign in and add one, through the server's /api/passkeys routes.
// No UI here: the account dialog calls these.  Each asks the server for options, hands them to
// navigator.credentials (base64url turned into bytes), posts the credential's JSON and returns the
// server's answer ({account: ...}).  A failure throws an Error whose .code is the server's code,
// "passkey_cancelled" when the person cancels (or lets it time out), "passkey_exists" when the
// authenticator holds a passkey of this account already, "passkey_unavailable" without WebAuthn,
// "passkey_failed" for another refusal of the browser's, "network" when the server is out of reach.

// Whether this browser can use passkeys on this page (WebAuthn, in a secure context: https, or
// http://localhost).
export function passkeysAvailable() {
  return typeof window !== "undefined" && window.isSecureContext === true
    && typeof window.PublicKeyCredential === "function"
    && typeof navigator !== "undefined" && !!navigator.credentials;
}

function failure(code, message) {
  const err = new Error(message);
  err.code = code;
  return err;
}

// base64url text -> ArrayBuffer
export function fromBase64url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes.buffer;
}

// ArrayBuffer or a view of one -> base64url text (no padding)
export function toBase64url(data) {
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data)
    : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const descriptors = (list) => (list || []).map((c) => ({ ...c, id: fromBase64url(c.id) }));

// the options of navigator.credentials.create from their JSON (the browser's own parser if it has one)
export function creationOptions(json) {
  const PKC = globalThis.PublicKeyCredential;
  if (PKC && typeof PKC.parseCreationOptionsFromJSON === "function") return PKC.parseCreationOptionsFromJSON(json);
  return { ...json, challenge: fromBase64url(json.challenge), user: { ...json.user, id: fromBase64url(json.user.id) },
    excludeCredentials: descriptors(json.excludeCredentials) };
}

// the options of navigator.credentials.get from their JSON
export function requestOptions(json) {
  const PKC = globalThis.PublicKeyCredential;
  if (PKC && typeof PKC.parseRequestOptionsFromJSON === "function") return PKC.parseRequestOptionsFromJSON(json);
  return { ...json, challenge: fromBase64url(json.challenge), allowCredentials: descriptors(json.allowCredentials) };
}

// a PublicKeyCredential as JSON (base64url), as its toJSON() writes it
export function credentialJSON(cred) {
  if (typeof cred.toJSON === "function") return cred.toJSON();
  const r = cred.response;
  const response = { clientDataJSON: toBase64url(r.clientDataJSON) };
  if (r.attestationObject) {   // made (create)
    response.attestationObject = toBase64url(r.attestationObject);
    response.transports = typeof r.getTransports === "function" ? r.getTransports() : [];
  } else {   // used (get)
    response.authenticatorData = toBase64url(r.authenticatorData);
    response.signature = toBase64url(r.signature);
    if (r.userHandle) response.userHandle = toBase64url(r.userHandle);
  }
  return { id: cred.id, rawId: toBase64url(cred.rawId), type: cred.type, response,
    authenticatorAttachment: cred.authenticatorAttachment ?? null,
    clientExtensionResults: typeof cred.getClientExtensionResults === "function" ? cred.getClientExtensionResults() : {} };
}

async function post(path, body) {
  let r;
  try {
    r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
      credentials: "same-origin", body: JSON.stringify(body) });
  } catch (e) {
    throw failure("network", "the server could not be reached; try again");
  }
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) {
    const err = failure((data && data.code) || "server_error", (data && data.message) || `${r.status} ${r.statusText}`);
    err.status = r.status;
    throw err;
  }
  return data;
}

// the browser's refusal (a DOMException) as an Error with a code
function browserFailure(e) {
  const name = e && e.name;
  if (name === "NotAllowedError" || name === "AbortError") {
    return failure("passkey_cancelled", "no passkey was given (cancelled, or it took too long)");
  }
  if (name === "InvalidStateError") return failure("passkey_exists", "this authenticator holds a passkey of this account already");
  return failure("passkey_failed", `the browser refused the passkey: ${(e && e.message) || name || e}`);
}

async function ceremony(optionsPath, optionsBody, answerPath, answerBody, make) {
  if (!passkeysAvailable()) {
    throw failure("passkey_unavailable", "this browser cannot use passkeys here (it needs https, or http://localhost)");
  }
  const { options, challenge_id: challengeId } = await post(optionsPath, optionsBody);
  let cred;
  try {
    cred = await make(options);
  } catch (e) {
    throw browserFailure(e);
  }
  if (!cred) throw failure("passkey_cancelled", "no passkey was given");
  return post(answerPath, { ...answerBody, challenge_id: challengeId, credential: credentialJSON(cred) });
}

const create = (options) => navigator.credentials.create({ publicKey: creationOptions(options) });
const get = (options) => navigator.credentials.get({ publicKey: requestOptions(options) });

// a new account named `name`, whose first passkey this makes; signed in -> {account}
export function passkeySignUp(name) {
  return ceremony("/api/passkeys/signup/options", { name }, "/api/passkeys/signup", { name }, create);
}

// sign in with any passkey of this site the authenticator holds -> {account}
export function passkeySignIn() {
  return ceremony("/api/passkeys/login/options", {}, "/api/passkeys/login", {}, get);
}

// one more passkey for the signed-in account -> {passkey, account}
export function passkeyAdd() {
  return ceremony("/api/passkeys/options", {}, "/api/passkeys", {}, create);
}
