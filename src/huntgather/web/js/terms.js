// The game's own words in the page's language: the players' colours, the pieces' roles, the kinds
// of feature, the bonus stack's tiles and the bot levels, each from the catalogues (web/i18n) by
// the name the server uses. Each is a literal t("…") call, so that tests/test_i18n.py sees every
// key in use; a name the catalogues lack (a newer server) is shown as the server says it.

import { t } from "./i18n.js";

const COLOURS = {
  yellow: () => t("colour.yellow"), red: () => t("colour.red"), green: () => t("colour.green"),
  blue: () => t("colour.blue"), violet: () => t("colour.violet"),
};

// a seat's colour as its name: "yellow" → "žlutý"
export const colourName = (name) => (COLOURS[name] ? COLOURS[name]() : name);

const ROLES = {
  fisher: () => t("role.fisher"), gatherer: () => t("role.gatherer"), hunter: () => t("role.hunter"),
  hut: () => t("role.hut"),
};

// a piece by its role: "hunter" → "lovec"
export const roleName = (role) => (ROLES[role] ? ROLES[role]() : role);

const KINDS = {
  forest: () => t("kind.forest"), meadow: () => t("kind.meadow"), river: () => t("kind.river"),
  lake: () => t("kind.lake"), logboat: () => t("kind.logboat"), hunting_trap: () => t("kind.hunting_trap"),
  raft: () => t("kind.raft"), shrine: () => t("kind.shrine"),
  huts: () => t("kind.huts"), hunters: () => t("kind.hunters"),
  normal: () => t("kind.normal"), start: () => t("kind.start"), bonus: () => t("kind.bonus"),   // a tile's stack
};

// a kind of feature (or of scoring) by the server's name: "forest" → "les"
export const kindName = (kind) => (KINDS[kind] ? KINDS[kind]() : String(kind).replace(/_/g, " "));

// the bonus stack's tile of an edition: the 2020 edition's menhir tile, the 2002 edition's bonus tile
export const bonusName = (edition) => (String(edition) === "2002" ? t("term.bonus_tile") : t("term.menhir_tile"));

const LEVELS = {
  random: () => t("bot.random"), greedy: () => t("bot.greedy"), easy: () => t("bot.easy"),
  medium: () => t("bot.medium"), hard: () => t("bot.hard"), expert: () => t("bot.expert"),
  master: () => t("bot.master"),
};
const LEVEL_ABOUT = {
  random: () => t("bot.random_about"), greedy: () => t("bot.greedy_about"), easy: () => t("bot.easy_about"),
  medium: () => t("bot.medium_about"), hard: () => t("bot.hard_about"), expert: () => t("bot.expert_about"),
  master: () => t("bot.master_about"),
};

// a bot level's name ("expert" → "expert"), and what it does in a player's words (`fallback`:
// the server's English words, for a level the catalogues do not know)
export const levelName = (level) => (LEVELS[level] ? LEVELS[level]() : level);
export const levelAbout = (level, fallback = "") => (LEVEL_ABOUT[level] ? LEVEL_ABOUT[level]() : fallback);
