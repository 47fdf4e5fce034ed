// pictures.js: a run of placed tiles as one SVG document (the board shows it in one <image>).
import { test } from "node:test";
import assert from "node:assert/strict";
import { defsFor, defsIndex, PAD, runBox, runDocument } from "../../src/huntgather/web/js/pictures.js";

// defs as the server writes them: symbols, a pattern that uses a filter, a gradient, one unused
const DEFS = '<defs><symbol id="hg-fish" viewBox="-6 -4 12 8" overflow="visible"><path d="M0 0"/></symbol>'
  + '<filter id="hgp-grain" x="0"><feTurbulence baseFrequency="0.45"/></filter>'
  + '<pattern id="hgp-meadow" width="25" height="25"><rect width="25" height="25" filter="url(#hgp-grain)"/>'
  + '<g stroke-width="0.5"><path d="M1 1 l1 1"/></g></pattern>'
  + '<radialGradient id="hgp-deep"><stop offset="0"/><stop offset="1"/></radialGradient>'
  + '<symbol id="hg-deer" viewBox="0 0 10 10"><circle r="1"/></symbol></defs>';

const TS = {
  defs: DEFS,
  tiles: {
    3: { svg: ['<g class="hg-tile" data-tile="3"><path d="M0 0" fill="url(#hgp-meadow)"/></g>',
      '<g class="hg-tile" data-tile="3"><use href="#hg-fish" x="1" y="1" width="9" height="9"><title>fish</title></use></g>'] },
    8: { svg: ['<g class="hg-tile" data-tile="8"><circle fill="url(#hgp-deep)"/></g>'] },
  },
};

test("the defs are indexed by id, each whole, nested elements inside their parent", () => {
  const index = defsIndex(DEFS);
  assert.deepEqual([...index.keys()], ["hg-fish", "hgp-grain", "hgp-meadow", "hgp-deep", "hg-deer"]);
  assert.equal(index.get("hgp-meadow"), '<pattern id="hgp-meadow" width="25" height="25"><rect width="25" height="25" '
    + 'filter="url(#hgp-grain)"/><g stroke-width="0.5"><path d="M1 1 l1 1"/></g></pattern>');
  assert.equal(index.get("hg-deer"), '<symbol id="hg-deer" viewBox="0 0 10 10"><circle r="1"/></symbol>');
  assert.equal([...index.values()].join(""), DEFS.slice("<defs>".length, -"</defs>".length));
});

test("a picture takes the defs its tiles refer to, and theirs in turn, in the defs' order, and no others", () => {
  const index = defsIndex(DEFS);
  assert.equal(defsFor(index, TS.tiles[3].svg[0]), index.get("hgp-grain") + index.get("hgp-meadow"));
  assert.equal(defsFor(index, TS.tiles[3].svg[1] + TS.tiles[8].svg[0]), index.get("hg-fish") + index.get("hgp-deep"));
  assert.equal(defsFor(index, '<use href="#nowhere"/>'), "");
});

test("a run's document holds each tile's picture untouched, moved to its square, in board units", () => {
  const cells = [{ x: 0, y: 0, tile: 3, rotation: 1 }, { x: -1, y: 2, tile: 8, rotation: 0 }];
  assert.deepEqual(runBox(cells), [-100 - PAD, -PAD, 200 + 2 * PAD, 300 + 2 * PAD]);
  const doc = runDocument(TS, cells, defsIndex(DEFS));
  assert.ok(doc.startsWith(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="${-100 - PAD} ${-PAD} ${200 + 2 * PAD} `
    + `${300 + 2 * PAD}" width="${200 + 2 * PAD}" height="${300 + 2 * PAD}"><defs>`));
  // in the order placed: a later tile is drawn over an earlier one's edge, as on the board
  const first = doc.indexOf(`<g transform="translate(0 0)">${TS.tiles[3].svg[1]}</g>`);
  const second = doc.indexOf(`<g transform="translate(-100 200)">${TS.tiles[8].svg[0]}</g>`);
  assert.ok(first > 0 && second > first);
  assert.ok(doc.includes('<symbol id="hg-fish"') && doc.includes('<radialGradient id="hgp-deep"'));
  assert.ok(!doc.includes("hgp-meadow") && !doc.includes("hg-deer"));
  assert.ok(doc.endsWith("</g></svg>"));
});
