// Box colours: a name always gets the same colour (hash → palette slot), so one operator is easy
// to follow across lanes, ranks and zoom levels. A fixed palette lets the renderer batch fills.

export const PALETTE_SIZE = 40;
const GOLDEN_ANGLE_DEG = 137.508;

/** FNV-1a: fast, and spreads similar names (aten::mm / aten::mul) over different slots. */
export function colorSlot(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i += 1) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % PALETTE_SIZE;
}

/** Neighbouring slots get distant hues; lightness suits the theme's text colour on top. */
export function boxPalette(dark: boolean): string[] {
  return Array.from({ length: PALETTE_SIZE }, (_, slot) => {
    const hue = Math.round((slot * GOLDEN_ANGLE_DEG) % 360);
    const lightness = (dark ? 36 : 72) + (slot % 3) * 4;
    return `hsl(${hue} ${dark ? 40 : 55}% ${lightness}%)`;
  });
}
