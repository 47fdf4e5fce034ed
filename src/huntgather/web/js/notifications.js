// Turn notifications on the account screen (#/me): the email address (nothing is mailed to it
// but the link that confirms it, until that link is opened), the switch for turn mails, and
// this browser's Web Push subscription. The browser's permission is asked only when the person
// ticks "Notify this browser". Endpoints: GET/PUT /api/me/notifications,
// POST/DELETE /api/push/subscriptions; the service worker is /sw.js (scope /).
//
//   const notifications = setupNotifications(errorWords, jsonRequest);
//   await notifications.show();   // fill the form from the server (the account screen opens)

import { t } from "./i18n.js";
import { $, api } from "./dom.js";

// whether this browser can take pushes here (a secure page: https, or localhost)
export const pushUsable = () => typeof navigator !== "undefined" && "serviceWorker" in navigator &&
  typeof window !== "undefined" && "PushManager" in window && "Notification" in window && window.isSecureContext;

// a base64url text as bytes (the server's VAPID public key, for PushManager.subscribe)
export function urlBytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

// what the address's line says, from the settings the server holds
export function emailState(s, mailOn) {
  if (!mailOn) return "";
  if (!s.email) return t("notify.no_address");
  if (!s.email_confirmed) return t("notify.not_confirmed", { email: s.email });
  return s.email_on ? t("notify.confirmed_on") : t("notify.confirmed_off");
}

async function registration() {
  return navigator.serviceWorker.register("/sw.js", { scope: "/" });
}

async function currentSubscription() {
  if (!pushUsable()) return null;
  const reg = await navigator.serviceWorker.getRegistration("/");
  return reg ? reg.pushManager.getSubscription() : null;
}

export function setupNotifications(errorWords, jsonRequest) {
  let shown = null;
  const note = (text, isError = false) => {
    const box = $("#notify-note");
    box.textContent = text;
    box.classList.toggle("error", isError);
  };

  async function show() {
    note("");
    try {
      shown = await api("/api/me/notifications");
    } catch (e) {
      note(errorWords(e), true);
      return;
    }
    const s = shown.settings;
    $("#notify-mail-off").hidden = shown.mail;
    $("#notify-mail").hidden = !shown.mail;
    $("#notify-email").value = s.email || "";
    $("#notify-email-on").checked = s.email_on;
    $("#notify-email-state").textContent = emailState(s, shown.mail);
    $("#notify-push-label").hidden = !pushUsable();
    $("#notify-push-unavailable").hidden = pushUsable();
    let here = null;
    try { here = await currentSubscription(); } catch (e) { here = null; }
    $("#notify-push-on").checked = s.push_on && !!here;
  }

  // subscribe this browser (asking for the permission now) and tell the server; throws a
  // plain-words Error if the person refuses
  async function subscribe() {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") throw new Error(t("notify.not_allowed"));
    const reg = await registration();
    await navigator.serviceWorker.ready;
    let sub = await reg.pushManager.getSubscription();
    if (!sub) sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: urlBytes(shown.push.key) });
    await jsonRequest("/api/push/subscriptions", "POST", sub.toJSON());
  }

  // end this browser's subscription; true if it had one
  async function unsubscribe() {
    const sub = await currentSubscription();
    if (!sub) return false;
    await jsonRequest("/api/push/subscriptions", "DELETE", { endpoint: sub.endpoint });
    await sub.unsubscribe();
    return true;
  }

  $("#notify-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!shown) return;
    note("");
    const body = {};
    const email = $("#notify-email").value.trim();
    if (shown.mail) {
      if (email !== (shown.settings.email || "")) body.email = email || null;
      body.email_on = $("#notify-email-on").checked && !!email;
    }
    try {
      // the box is this browser's: ticked, it subscribes (and the account's pushes are on);
      // unticked, it ends its own subscription, and the account's pushes stay on while
      // another browser of the account has one
      if (pushUsable() && $("#notify-push-on").checked) {
        await subscribe();
        body.push_on = true;
      } else if (pushUsable() && await unsubscribe()) {
        body.push_on = shown.push.subscriptions > 1;
      }
      const answer = await jsonRequest("/api/me/notifications", "PUT", body);
      await show();
      note(answer.confirmation === "sent" ? t("notify.saved_sent", { email })
        : answer.confirmation === "failed" ? t("notify.saved_failed") : t("notify.saved"));
    } catch (e) {
      note(e.code ? errorWords(e) : e.message, true);
    }
  });

  return { show };
}
