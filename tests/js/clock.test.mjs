// clock.js: the time left the page shows, counted from the server's clock, and the form's choice.
import { test } from "node:test";
import assert from "node:assert/strict";
import { clockChoice, formatClock, timesLeft } from "../../src/huntgather/web/js/clock.js";

const CLOCK = { kind: "live", left: [30, 12.5], running: 1, deadline: 1012.5, now: 1000, version: 7, out: [] };

test("only the running seat's time goes down, from the server's deadline and now", () => {
  assert.deepEqual(timesLeft(CLOCK, 0), [30, 12.5]);
  assert.deepEqual(timesLeft(CLOCK, 2.5), [30, 10]);
  assert.deepEqual(timesLeft(CLOCK, 60), [30, 0]);          // never below nothing
  assert.deepEqual(timesLeft({ ...CLOCK, running: null, deadline: null }, 60), [30, 12.5]);
  assert.deepEqual(timesLeft(null, 1), []);
});

test("times read as minutes and seconds, hours, or days", () => {
  assert.equal(formatClock(0), "0:00");
  assert.equal(formatClock(4.2), "0:05");   // a second begun counts
  assert.equal(formatClock(605), "10:05");
  assert.equal(formatClock(3723), "1:02:03");
  assert.equal(formatClock(3 * 86400 + 7200), "3 d 2 h");
  assert.equal(formatClock(-3), "0:00");
});

test("the form's clock makes the setup's fields, or says what is wrong", () => {
  const form = (values) => (id) => values[id] ?? "";
  assert.deepEqual(clockChoice("none", form({})), { fields: {} });
  assert.deepEqual(clockChoice("live", form({ "clock-minutes": "10", "clock-increment": "5", "clock-on-timeout": "easy" })),
    { fields: { clock: { base: 600, increment: 5 }, on_timeout: "easy" } });
  assert.deepEqual(clockChoice("correspondence", form({ "clock-days": "3", "clock-on-timeout": "hard" })),
    { fields: { clock: { days_per_move: 3 }, on_timeout: "hard" } });
  assert.equal(clockChoice("live", form({ "clock-minutes": "0" })).focus, "clock-minutes");
  assert.equal(clockChoice("live", form({ "clock-minutes": "5", "clock-increment": "1.5" })).focus, "clock-increment");
  assert.equal(clockChoice("correspondence", form({ "clock-days": "15" })).focus, "clock-days");
});
