// The page's words in the player's language: English, Czech or German. Each language has one
// catalogue (web/i18n/<lang>.json): a key to a text, or to its plural forms by Intl.PluralRules
// category (Czech: one 1, few 2–4, many fractions, other 0 and 5+). {name} in a text is a parameter.
// The language is the one chosen in the settings (kept in localStorage), else the first of
// navigator.languages that the page speaks, else English.

export const LANGUAGES = ["en", "cs", "de"];
export const LANG_KEY = "huntgather.language";

let lang = "en";
let catalogue = {};
let english = {};

// the language for these browser preferences and this saved choice ("" or null: none saved)
export function chooseLanguage(preferred, saved) {
  if (saved && LANGUAGES.includes(saved)) return saved;
  for (const tag of preferred || []) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

// use these catalogues (a test, or load() below)
export function useCatalogue(language, words, fallback = words) {
  lang = language;
  catalogue = words;
  english = fallback;
}

export const language = () => lang;

// one Intl.PluralRules per language (making one costs far more than asking it)
const plurals = new Map();
function pluralRules(language) {
  let rules = plurals.get(language);
  if (!rules) plurals.set(language, rules = new Intl.PluralRules(language));
  return rules;
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// the text of `key` with its parameters; a plural entry picks its form by params.n
export function t(key, params = {}) {
  const entry = catalogue[key] ?? english[key];
  if (entry === undefined) return key;
  if (typeof entry === "string") return fill(entry, params);
  const form = pluralRules(lang).select(Number(params.n ?? 0));
  return fill(entry[form] ?? entry.other, params);
}

export const hasText = (key) => key in catalogue;

// words the server sent as `say` ({key, params}: protocol.md, "Words in every language") in this
// language: each parameter first — a phrase rendered the same way, a list of phrases joined by the
// catalogue's say.sep.<parameter> — then the key's text (a plural by params.n); a player
// ({key: "seat", params: {seat}}) is named by `seat(i)` (the page's name for that seat).
// The server renders the English `text` from en.json by the same rules (server/sayings.py).
export function say(phrase, seat = String) {
  if (!phrase || typeof phrase !== "object" || typeof phrase.key !== "string") return "";
  const params = phrase.params && typeof phrase.params === "object" ? phrase.params : {};
  if (phrase.key === "seat") return seat(params.seat);
  const words = {};
  for (const [name, value] of Object.entries(params)) {
    if (Array.isArray(value)) {
      const sep = catalogue[`say.sep.${name}`] ?? english[`say.sep.${name}`];
      words[name] = value.map((p) => say(p, seat)).join(typeof sep === "string" ? sep : ", ");
    } else if (value && typeof value === "object") {
      words[name] = say(value, seat);
    } else {
      words[name] = value;
    }
  }
  return t(phrase.key, words);
}

// the words for an error code the server sent (messages.py ErrorCode), in this language
export function errorText(code) {
  const key = `error.${code}`;
  return key in catalogue || key in english ? t(key) : t("error.unknown");
}

async function fetchCatalogue(language) {
  const r = await fetch(`/static/i18n/${language}.json`);
  if (!r.ok) throw new Error(`${r.status} ${r.statusText}`);
  return r.json();
}

function saved() {
  try { return localStorage.getItem(LANG_KEY); } catch (e) { return null; }
}

// load the player's language (and English beside it, for a key a catalogue lacks); set <html lang>
export async function load() {
  const chosen = chooseLanguage(navigator.languages || [navigator.language], saved());
  const en = await fetchCatalogue("en");
  useCatalogue(chosen, chosen === "en" ? en : await fetchCatalogue(chosen), en);
  document.documentElement.lang = chosen;
  translatePage();
}

// put the words of this language into the page's fixed elements: data-i18n="key" is the
// element's text (an element with only text in it); data-i18n-attr="title=key aria-label=key2"
// sets those attributes (placeholder, title, aria-label…)
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.trim().split(/\s+/)) {
      const [attr, key] = pair.split("=");
      if (attr && key) node.setAttribute(attr, t(key));
    }
  }
}

// keep a choice from the settings ("" for the browser's) and show the page in it
export function setLanguage(choice) {
  try {
    if (choice) localStorage.setItem(LANG_KEY, choice); else localStorage.removeItem(LANG_KEY);
  } catch (e) { /* storage full or disabled */ }
  location.reload();
}

export const savedLanguage = () => saved() || "";
