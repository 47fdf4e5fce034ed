// Accounts in the page: who is signed in (GET /api/me), the header's "Sign in" button or the
// account's name, the dialog that signs up and signs in (a name and a password, or a passkey),
// and the account screen (#/me): ratings, sign out (here or everywhere), the password, passkeys,
// deleting the account. Accounts are optional: a guest plays as before, by the secrets this
// browser keeps (storage.js).
//
//   const accounts = setupAccounts(onChange);   // onChange(): the signed-in state changed
//   await accounts.refresh();   accounts.me();   accounts.showMe();

import { $, api, el } from "./dom.js";
import { errorText, hasText, language, t } from "./i18n.js";
import { setupNotifications } from "./notifications.js";
import { ID_RE, loadStore, normalEntry, playSecrets } from "./storage.js";

// the server's error codes, in a player's words (a code not here: the server's own message)
// the words for an error thrown by api() (or by passkeys.js): its code's in the catalogues
// (error.<code>; a name or password refused says why in the server's words, in English), else
// its own message
export function errorWords(err) {
  const code = err && err.code;
  if (code && hasText(`error.${code}`)) {
    const why = err.message && err.message !== code ? err.message : "";
    if ((code === "bad_name" || code === "bad_password") && why && language() === "en") {
      return code === "bad_name" ? t("error.bad_name_why", { why }) : t("error.bad_password_why", { why });
    }
    return errorText(code);
  }
  if (err instanceof TypeError) return errorText("network");
  return (err && err.message) || errorText("unknown");
}

// passkeys.js (its own module): loaded when there is one; without it the page offers passwords only
let passkeys = null;
const passkeysLoaded = import("./passkeys.js").then((m) => { passkeys = m; }, () => { passkeys = null; });

function passkeysUsable() {
  try {
    return !!(passkeys && typeof passkeys.passkeysAvailable === "function" && passkeys.passkeysAvailable());
  } catch (e) {
    return false;
  }
}

async function jsonRequest(path, method, body) {
  const options = { method, headers: { "Content-Type": "application/json" } };
  if (body !== undefined) options.body = JSON.stringify(body);
  return api(path, options);
}

// the edition names of a ratings object, newest edition first ("2020" before "2002")
export const editionOrder = (ratings) => Object.keys(ratings || {}).sort((a, b) => b.localeCompare(a));

// the uncertainty in the rating's own points (one sigma: the server's `uncertainty`), or null
export function uncertainty(r) {
  return r && Number.isFinite(r.uncertainty) ? Math.round(r.uncertainty) : null;
}

// "1520 ± 84": the rating and its uncertainty, both in the rating's points
export function ratingWords(r) {
  if (!r || !Number.isFinite(r.rating)) return "—";
  const u = uncertainty(r);
  return u === null ? String(r.rating) : `${r.rating} ± ${u}`;
}

// one hello with a game's secrets, on a socket of its own that closes at the answer: the server
// gives the seats they hold, and that have no account yet, to the account signed in
function helloOnce(id, secrets) {
  return new Promise((resolve) => {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    let sock;
    try {
      sock = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(id)}`);
    } catch (e) {
      resolve(false);
      return;
    }
    const done = (ok) => { clearTimeout(timer); try { sock.close(); } catch (e) { /* closed */ } resolve(ok); };
    const timer = setTimeout(() => done(false), 8000);
    sock.onopen = () => sock.send(JSON.stringify({ type: "hello", secrets, version: null }));
    sock.onmessage = (ev) => {
      let msg = null;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg && msg.type === "welcome") done(true);
      else if (msg && msg.type === "error") done(false);
    };
    sock.onerror = () => done(false);
  });
}

// after signing up: the seats this browser holds in games still in play become the new account's
// (as opening each game signed in would), so that they are found on any device
export async function claimHeldSeats() {
  const all = loadStore();
  const held = Object.keys(all).filter((id) => ID_RE.test(id) && playSecrets(normalEntry(all[id])).length);
  if (!held.length) return 0;
  let games = [];
  try {
    const ids = held.slice(0, 100);
    games = (await api(`/api/games?ids=${ids.map(encodeURIComponent).join(",")}`)).games || [];
  } catch (e) {
    return 0;
  }
  const playing = games.filter((g) => g && g.status !== "over" && held.includes(g.id)).slice(0, 30);
  // the creator's secret too, as the game's page sends it: a hotseat game (one page holding
  // several seats) is then known as such, and none of its seats is claimed
  const secretsOf = (entry) => playSecrets(entry).concat(entry.creator ? [entry.creator] : []);
  const answers = await Promise.all(playing.map((g) => helloOnce(g.id, secretsOf(normalEntry(all[g.id])))));
  return answers.filter(Boolean).length;
}

export function setupAccounts(onChange) {
  let me = null;   // GET /api/me's answer while signed in; null while signed out
  let opener = null;
  let mode = "sign-in";
  const dialog = $("#account-dialog");

  // ------------------------------------------------------------------ the header

  function renderHeader() {
    const signedIn = !!me;
    $("#sign-in").hidden = signedIn;
    const link = $("#me-link");
    link.hidden = !signedIn;
    $("#me-name-short").textContent = signedIn ? me.account.name : "";
    link.title = signedIn ? t("account.signed_in_as", { name: me.account.name }) : "";
    document.body.dataset.signedIn = signedIn ? "yes" : "no";
  }

  // who is signed in, asked again (a 401 or any failure: nobody)
  async function refresh() {
    try {
      const data = await api("/api/me");
      me = data && data.account ? data : null;
    } catch (e) {
      me = null;
    }
    renderHeader();
    return me;
  }

  async function changed() {
    await refresh();
    await onChange();
  }

  // ------------------------------------------------------------------ the dialog

  function setMode(m) {
    mode = m;
    const up = m === "sign-up";
    $("#mode-sign-in").setAttribute("aria-pressed", up ? "false" : "true");
    $("#mode-sign-up").setAttribute("aria-pressed", up ? "true" : "false");
    $("#account-dialog-title").textContent = up ? t("account.create_title") : t("account.sign_in");
    $("#account-submit").textContent = up ? t("account.create") : t("account.sign_in");
    $("#account-password").autocomplete = up ? "new-password" : "current-password";
    $("#account-name").autocomplete = "username";
    $("#account-about").textContent = up ? t("account.create_about") : t("account.sign_in_about");
    $("#account-passkey").textContent = up ? t("account.create_passkey") : t("account.sign_in_passkey");
    $("#account-error").textContent = "";
  }

  async function open(which = "sign-in") {
    opener = document.activeElement;
    await passkeysLoaded;
    setMode(which);
    $("#passkey-box").hidden = !passkeysUsable();
    $("#account-password").value = "";
    if (!dialog.open) dialog.showModal();
    $("#account-name").focus();
  }

  function close() {
    if (dialog.open) dialog.close();
  }

  dialog.addEventListener("close", () => {
    $("#account-error").textContent = "";
    $("#account-password").value = "";
    if (opener && document.contains(opener) && typeof opener.focus === "function") opener.focus();
    opener = null;
  });

  function busy(on) {
    for (const id of ["#account-submit", "#account-passkey"]) $(id).disabled = on;
  }

  async function submit(ev) {
    ev.preventDefault();
    const name = $("#account-name").value.trim();
    const password = $("#account-password").value;
    const error = $("#account-error");
    error.textContent = "";
    if (!name) {
      error.textContent = t("account.type_name");
      $("#account-name").focus();
      return;
    }
    if (!password) {
      error.textContent = mode === "sign-up" ? t("account.choose_password") : t("account.type_password");
      $("#account-password").focus();
      return;
    }
    // a new account's mails speak the page's language
    await signInBy(() => (mode === "sign-up" ? jsonRequest("/api/accounts", "POST", { name, password, language: language() })
      : jsonRequest("/api/session", "POST", { name, password })));
  }

  // one way of signing in or up (`work`); then a new account takes the seats this browser holds,
  // the dialog closes and the page shows who is signed in; a failure is said in the dialog
  async function signInBy(work) {
    busy(true);
    try {
      await work();
      if (mode === "sign-up") await claimHeldSeats();
      close();
      await changed();
      focusAfter();
    } catch (e) {
      $("#account-error").textContent = errorWords(e);
    } finally {
      busy(false);
    }
  }

  // signed in: the focus, left on the hidden Sign in button, goes to the account's link
  function focusAfter() {
    const at = document.activeElement;
    if (!at || at === document.body || at.offsetParent === null) $("#me-link").focus();
  }

  async function withPasskey() {
    const error = $("#account-error");
    error.textContent = "";
    if (!passkeysUsable()) {
      error.textContent = errorWords({ code: "passkey_unavailable" });
      return;
    }
    const name = $("#account-name").value.trim();
    if (mode === "sign-up" && !name) {
      error.textContent = t("account.type_new_name");
      $("#account-name").focus();
      return;
    }
    // a new account's mails speak the page's language (the passkey sign-up takes no other field)
    await signInBy(async () => {
      if (mode !== "sign-up") return passkeys.passkeySignIn();
      const answer = await passkeys.passkeySignUp(name);
      await jsonRequest("/api/me/language", "PUT", { language: language() }).catch(() => null);
      return answer;
    });
  }

  $("#sign-in").onclick = () => open("sign-in");
  $("#rated-sign-in").onclick = () => open("sign-in");
  $("#mode-sign-in").onclick = () => setMode("sign-in");
  $("#mode-sign-up").onclick = () => setMode("sign-up");
  $("#account-form").addEventListener("submit", submit);
  $("#account-passkey").onclick = withPasskey;
  $("#account-close").onclick = close;
  // a click on the backdrop (outside the dialog's box) closes it, as Escape does
  dialog.addEventListener("click", (ev) => { if (ev.target === dialog) close(); });

  // ------------------------------------------------------------------ the account screen (#/me)

  function note(id, text, isError = false) {
    const box = $(id);
    box.textContent = text;
    box.classList.toggle("error", isError);
  }

  const notifications = setupNotifications(errorWords, jsonRequest);

  async function showMe() {
    await Promise.all([refresh(), passkeysLoaded]);
    $("#me-signed-out").hidden = !!me;
    $("#me-body").hidden = !me;
    for (const id of ["#password-note", "#passkey-note", "#delete-error", "#me-error", "#me-language-note"]) note(id, "");
    if (!me) return;
    const a = me.account;
    $("#me-name").textContent = a.name;
    $("#me-profile").href = `#/player/${encodeURIComponent(a.name)}`;
    const body = $("#me-ratings tbody");
    body.innerHTML = "";
    const eds = editionOrder(me.ratings);
    for (const ed of eds) {
      const r = me.ratings[ed];
      const tr = el("tr", { "data-edition": ed });
      const rating = el("td", { class: "rating" }, ratingWords(r));
      if (r.provisional) {
        rating.append(" ", el("span", { class: "provisional", title: t("rating.provisional_about") }, t("rating.provisional")));
      }
      tr.append(el("td", {}, ed), rating, el("td", { class: "num" }, String(r.games ?? 0)), el("td", { class: "num" }, String(r.wins ?? 0)));
      body.append(tr);
    }
    $("#me-ratings").hidden = !eds.length;
    $("#me-no-ratings").hidden = !!eds.length;
    // the password: a form to set one (an account made with a passkey) or to change it
    $("#password-title").textContent = a.has_password ? t("account.change_password") : t("account.set_password_title");
    $("#old-password-label").hidden = !a.has_password;
    $("#password-save").textContent = a.has_password ? t("account.change_password") : t("account.set_password");
    $("#old-password").value = "";
    $("#new-password").value = "";
    $("#me-language").value = a.language || "en";
    const n = a.passkeys || 0;
    $("#passkey-count").textContent = n ? t("account.passkeys", { n }) : t("account.no_passkey");
    $("#add-passkey").hidden = !passkeysUsable();
    $("#passkey-unavailable").hidden = passkeysUsable();
    $("#delete-password-label").hidden = !a.has_password;
    $("#delete-password").value = "";
    await notifications.show();
  }

  async function signOut(everywhere) {
    try {
      await api(everywhere ? "/api/sessions" : "/api/session", { method: "DELETE" });
    } catch (e) {
      if (e.code !== "signed_out") { note("#me-error", errorWords(e), true); return; }
    }
    await changed();
  }

  $("#sign-out").onclick = () => signOut(false);
  $("#sign-out-all").onclick = () => {
    if (confirm(t("account.sign_out_all_confirm"))) signOut(true);
  };
  $("#me-sign-in").onclick = () => open("sign-in");

  $("#password-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = { new: $("#new-password").value };
    if (me && me.account.has_password) body.old = $("#old-password").value;
    if (!body.new) { note("#password-note", t("account.type_new_password"), true); $("#new-password").focus(); return; }
    try {
      await jsonRequest("/api/me/password", "PUT", body);
      await refresh();
      await showMe();
      note("#password-note", t("account.password_saved"));
    } catch (e) {
      note("#password-note", errorWords(e), true);
    }
  });

  // the language of the account's mails
  $("#me-language").onchange = async () => {
    note("#me-language-note", "");
    try {
      await jsonRequest("/api/me/language", "PUT", { language: $("#me-language").value });
      note("#me-language-note", t("me.language_saved"));
    } catch (e) {
      note("#me-language-note", errorWords(e), true);
    }
  };

  $("#add-passkey").onclick = async () => {
    note("#passkey-note", "");
    try {
      await passkeys.passkeyAdd();
      await showMe();
      note("#passkey-note", t("account.passkey_added"));
    } catch (e) {
      note("#passkey-note", errorWords(e), true);
    }
  };

  $("#delete-account").onclick = async () => {
    if (!me) return;
    const name = me.account.name;
    const what = t("account.delete_confirm", { name });
    if (!confirm(what)) return;
    const body = me.account.has_password ? { password: $("#delete-password").value } : {};
    try {
      await jsonRequest("/api/me", "DELETE", body);
    } catch (e) {
      note("#delete-error", errorWords(e), true);
      return;
    }
    await changed();
    note("#me-error", t("account.deleted", { name }));
  };

  return { refresh, me: () => me, open, showMe };
}
