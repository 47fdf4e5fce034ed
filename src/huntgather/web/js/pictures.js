// The placed tiles of the board drawn as pictures, a run of tiles at a time.
//
// The board is drawn again on every update of the game (board.js keeps in the page what it drew
// the same as before).  Drawn as SVG elements, every path of every tile is styled, laid out and
// painted again each time (80 tiles are about 2,000 elements and over 200 ms on a phone profile).  Instead, the tiles are taken in the order they were
// placed, in runs of RUN (the last one shorter): a run becomes one SVG document of its own (each
// tile's picture as the server drew it, moved to its square, with the defs those pictures refer
// to), shown on the board by one <image>.  The browser keeps what it drew of a picture, so a
// redraw of the board costs one element per run, whatever the tiles hold.  A picture is vector
// graphics drawn at the zoom shown: the board looks as it did with the tiles' own elements.
//
// A picture is made once, from a blob: URL (the page's Content-Security-Policy allows blob:
// images), and shown once it is decoded: until then (a game just opened, the other tile style
// just chosen, the last run after a move) its tiles are drawn as elements.
//
// Pure functions (node tests): defsIndex, runDocument.  The browser part: createPictures.

// tiles to a picture: with more, the picture of the last run, made again after each move, costs
// more; with fewer, a redraw shows more pictures
export const RUN = 8;
// how far a tile's picture may reach beyond its square (strokes on its edge), in board units
export const PAD = 4;
// pictures kept (their documents, decoded, and URLs), the least recently shown dropped first:
// both styles of a whole game (2 × 10 runs of 8) and a few more (a picture is a document of its
// own in the browser's memory; the last run's pictures of the moves before are not shown again)
const KEEP = 32;

// the top-level elements of `defs` (the server's <defs>…</defs>) by id: {id: markup}, in order
export function defsIndex(defs) {
  const index = new Map();
  const tag = /<(\/?)([a-zA-Z][\w:-]*)([^>]*?)(\/?)>/g;
  let depth = 0, start = -1, id = null, m;
  while ((m = tag.exec(defs))) {
    const [, close, name, attrs, selfClosing] = m;
    if (close) {
      depth -= 1;
      if (depth === 1 && start >= 0) { index.set(id, defs.slice(start, tag.lastIndex)); start = -1; }
      continue;
    }
    if (depth === 0 && name === "defs") { depth = 1; continue; }
    if (depth === 1) {
      const found = /\bid="([^"]+)"/.exec(attrs);
      id = found ? found[1] : null;
      if (selfClosing) { if (id) index.set(id, m[0]); continue; }
      start = id ? m.index : -1;
    }
    if (!selfClosing) depth += 1;
  }
  return index;
}

const REFS = /(?:href="#|url\(#)([^")]+)/g;

// the defs that `markup` refers to, and those they refer to in turn, in the order of `index`
export function defsFor(index, markup) {
  const wanted = new Set();
  const todo = [...markup.matchAll(REFS)].map((m) => m[1]);
  while (todo.length) {
    const id = todo.pop();
    if (wanted.has(id) || !index.has(id)) continue;
    wanted.add(id);
    for (const m of index.get(id).matchAll(REFS)) todo.push(m[1]);
  }
  return [...index.keys()].filter((id) => wanted.has(id)).map((id) => index.get(id)).join("");
}

// the squares a run of cells ({x, y, tile, rotation}) covers, padded: [x0, y0, width, height]
// in board units (a square is 100)
export function runBox(cells) {
  const xs = cells.map((c) => c.x), ys = cells.map((c) => c.y);
  const x0 = Math.min(...xs) * 100 - PAD, y0 = Math.min(...ys) * 100 - PAD;
  return [x0, y0, (Math.max(...xs) + 1) * 100 + PAD - x0, (Math.max(...ys) + 1) * 100 + PAD - y0];
}

// the SVG document of a run of cells, in board units: each tile's picture of the tile set `ts`
// (GET /api/tiles) in its square, as the board draws it, and the defs they need (`index`:
// defsIndex(ts.defs))
export function runDocument(ts, cells, index) {
  const [x, y, w, h] = runBox(cells);
  const body = cells.map((c) => `<g transform="translate(${c.x * 100} ${c.y * 100})">${ts.tiles[c.tile].svg[c.rotation]}</g>`)
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${x} ${y} ${w} ${h}" width="${w}" height="${h}">`
    + `<defs>${defsFor(index, body)}</defs>${body}</svg>`;
}

// the pictures of the runs of a board: `picture(ts, cells)` answers a run's picture
// ({url, box}) once it can be shown, else null and starts making it; `ready(key, made)` is told
// of each picture made, to put it in place of the tiles' elements (made false: it will not be,
// its tiles stay drawn as elements)
export function createPictures(ready) {
  const made = new Map();        // key -> {key, url, box, image, shown}; the last used last
  const sets = new WeakMap();    // a tile set -> {id, index}
  let setCount = 0;

  function setOf(ts) {
    if (!sets.has(ts)) sets.set(ts, { id: ++setCount, index: null });
    return sets.get(ts);
  }

  function keyOf(ts, cells) {
    return `${setOf(ts).id}|${cells.map((c) => `${c.tile}:${c.rotation}:${c.x}:${c.y}`).join(";")}`;
  }

  function make(ts, cells, key) {
    const set = setOf(ts);
    if (!set.index) set.index = defsIndex(ts.defs || "");
    const doc = runDocument(ts, cells, set.index);
    const p = { key, url: URL.createObjectURL(new Blob([doc], { type: "image/svg+xml" })), box: runBox(cells),
      image: new Image(), shown: false };
    // the decoded image is held here, so that the board's <image> finds it drawn at once
    p.image.src = p.url;
    p.image.decode().then(() => {
      p.shown = made.get(key) === p;   // else dropped meanwhile
      ready(key, p.shown);
    }, () => ready(key, false));   // not decoded: the tiles stay drawn as elements
    made.set(key, p);
    for (const [k, old] of made) {
      if (made.size <= KEEP) break;
      made.delete(k);
      URL.revokeObjectURL(old.url);
    }
  }

  return {
    keyOf,
    picture(ts, cells) {
      const key = keyOf(ts, cells);
      const p = made.get(key);
      if (!p) { make(ts, cells, key); return null; }
      made.delete(key);   // used last: dropped last
      made.set(key, p);
      return p.shown ? p : null;
    },
  };
}
