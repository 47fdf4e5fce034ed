// The page's English catalogue in use, as a page whose language is English has it: imported
// first by the tests of modules whose words come from the catalogues (web/i18n/en.json).
import { readFileSync } from "node:fs";
import { useCatalogue } from "../../src/huntgather/web/js/i18n.js";

export const read = (lang) =>
  JSON.parse(readFileSync(new URL(`../../src/huntgather/web/i18n/${lang}.json`, import.meta.url)));

useCatalogue("en", read("en"));
