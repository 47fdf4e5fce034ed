// The moves' text form, as the server and the records write it (huntgather.moves; docs/records.md):
// a placement "37@0,-1r2" (tile 37 at x 0, y -1, turned twice) and a piece "m37.1" (a meeple on
// tile 37's zone 1; "h" a hut). The review, the guided game and the puzzles read moves with these.

// the placement of a move's text, or null for another move
export function parsePlace(text) {
  const m = /^(\d+)@(-?\d+),(-?\d+)r([0-3])$/.exec(text || "");
  return m ? { tile: +m[1], x: +m[2], y: +m[3], rotation: +m[4] } : null;
}

// the piece put by a move's text, or null for another move
export function parsePiece(text) {
  const m = /^([mh])(\d+)\.(\d+)$/.exec(text || "");
  return m ? { piece: m[1] === "m" ? "meeple" : "hut", tile: +m[2], zone: +m[3] } : null;
}
