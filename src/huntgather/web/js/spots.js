// Where pieces and occupant choices go on a tile, so that none covers another.

export const SPOT_GAP = 16;   // two spots (radius 7) closer than this would overlap

// Move a spot off the spots already drawn: the nearest free place on widening rings around
// its anchor, kept inside its tile, so that every choice stays a target of its own.
export function clearOf(spot, placed) {
  const free = (x, y) => placed.every((q) => Math.hypot(q.x - x, q.y - y) >= SPOT_GAP);
  if (free(spot.x, spot.y)) return;
  const left = Math.floor(spot.x / 100) * 100, top = Math.floor(spot.y / 100) * 100;
  for (let r = SPOT_GAP; r <= 120; r += SPOT_GAP / 2) {
    const n = Math.max(8, Math.round(2 * Math.PI * r / 8));
    for (let k = 0; k < n; k++) {
      const x = spot.x + Math.round(r * Math.cos(2 * Math.PI * k / n));
      const y = spot.y + Math.round(r * Math.sin(2 * Math.PI * k / n));
      if (x < left + 8 || x > left + 92 || y < top + 8 || y > top + 92) continue;
      if (free(x, y)) { spot.x = x; spot.y = y; return; }
    }
  }
}
