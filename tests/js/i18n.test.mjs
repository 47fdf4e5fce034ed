import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { chooseLanguage, errorText, say, t, useCatalogue } from "../../src/huntgather/web/js/i18n.js";

const read = (lang) => JSON.parse(readFileSync(new URL(`../../src/huntgather/web/i18n/${lang}.json`, import.meta.url)));

test("the language: the saved choice, else the browser's first that the page speaks, else English", () => {
  assert.equal(chooseLanguage(["de-DE", "en"], "cs"), "cs");
  assert.equal(chooseLanguage(["fr-FR", "cs-CZ", "en"], null), "cs");
  assert.equal(chooseLanguage(["DE-at"], ""), "de");
  assert.equal(chooseLanguage(["fr"], "xx"), "en");
  assert.equal(chooseLanguage(undefined, null), "en");
});

test("Czech plural forms by Intl.PluralRules: 1, 2–4, 5+", () => {
  useCatalogue("cs", read("cs"), read("en"));
  assert.equal(t("count.points", { n: 1 }), "1 bod");
  assert.equal(t("count.points", { n: 2 }), "2 body");
  assert.equal(t("count.points", { n: 4 }), "4 body");
  assert.equal(t("count.points", { n: 5 }), "5 bodů");
  assert.equal(t("count.points", { n: 0 }), "0 bodů");
  assert.equal(t("count.points", { n: 22 }), "22 bodů");   // few is 2–4 only, not 22
});

test("parameters, error codes, and an unknown key", () => {
  useCatalogue("de", read("de"), read("en"));
  assert.equal(t("count.points", { n: 1 }), "1 Punkt");
  assert.equal(t("page.start_failed", { detail: "x" }), "Die Seite konnte nicht starten: x");
  assert.equal(errorText("not_your_turn"), "Du bist nicht am Zug.");
  assert.equal(errorText("no_such_code"), "Etwas ist schiefgegangen. Versuch es noch einmal.");
  assert.equal(t("no.such.key"), "no.such.key");
  useCatalogue("en", read("en"));
  assert.equal(t("count.points", { n: 1 }), "1 point");
  assert.equal(t("count.points", { n: 7 }), "7 points");
});

test("the winner's line: Czech instrumental by count, English and German plurals", () => {
  useCatalogue("cs", read("cs"), read("en"));
  assert.equal(t("final.won", { names: "Ann", n: 1 }), "Ann vítězí s 1 bodem");
  assert.equal(t("final.won", { names: "Ann", n: 3 }), "Ann vítězí se 3 body");
  assert.equal(t("final.won", { names: "Ann", n: 41 }), "Ann vítězí s 41 body");
  useCatalogue("de", read("de"), read("en"));
  assert.equal(t("final.won", { names: "Ann", n: 1 }), "Ann gewinnt mit 1 Punkt");
  useCatalogue("en", read("en"));
  assert.equal(t("final.won_you", { names: "Ann", n: 12 }), "Ann wins with 12 points — well played!");
});

// the phrases tests/test_sayings.py keeps (tests/data/sayings.json): the server's `say` of each key
// the random games say, with the words the server renders from the same catalogues
const SAYINGS = JSON.parse(readFileSync(new URL("../data/sayings.json", import.meta.url)));
const COLOURS = ["yellow", "red", "green", "blue", "violet"];

test("say(): the page renders the server's phrases as the server does, in all three languages", () => {
  assert.ok(SAYINGS.length > 10);
  for (const lang of ["en", "cs", "de"]) {
    useCatalogue(lang, read(lang), read("en"));
    for (const sample of SAYINGS) {
      assert.equal(say(sample.say, (i) => t(`colour.${COLOURS[i]}`)), sample[lang], `${lang} ${sample.say.key}`);
    }
  }
  useCatalogue("en", read("en"));
});

test("say(): nested phrases, lists joined by say.sep.<name>, plurals by n, a seat by the page's name", () => {
  useCatalogue("cs", read("cs"), read("en"));
  const facts = { key: "say.facts", params: { facts: [{ key: "say.fact.fish", params: { n: 2 } },
    { key: "say.fact.gold_nugget", params: { n: 5 } }] } };
  const zone = { key: "say.zone_facts", params: { kind: { key: "say.from.river", params: {} }, facts } };
  const line = { key: "say.taken_back", params: { seat: { key: "seat", params: { seat: 1 } }, zone } };
  assert.equal(say(line, (i) => `Ann (${i})`), "šaman: Ann (1) bere zpět figurku z řeky (2 ryby, 5 zlatých nugetů), bez vyhodnocení");
  assert.equal(say({ key: "say.raw", params: { text: "an oracle" } }), "an oracle");   // a third party's words
  assert.equal(say(null), "");
  useCatalogue("en", read("en"));
});
