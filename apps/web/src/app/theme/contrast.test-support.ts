/** WCAG 2.x contrast between colours, and the nearest darker tone of a colour that is readable. */

/** The contrast WCAG 2.2 AA asks of normal text (1.4.3). */
export const AA_TEXT_CONTRAST = 4.5;

function channels(hex: string): [number, number, number] {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

const toHex = (rgb: number[]) => `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/**
 * `color` itself when it reads at `min` on every one of `backgrounds`, else the lightest tone of it
 * darkened towards black (in 2 % steps) that does: the hue stays, so the page looks the same.
 */
export function readableOn(color: string, backgrounds: readonly string[], min = AA_TEXT_CONTRAST): string {
  const rgb = channels(color);
  for (let keep = 1; keep > 0; keep -= 0.02) {
    const tone = toHex(rgb.map((v) => v * keep));
    if (backgrounds.every((bg) => contrastRatio(tone, bg) >= min)) return tone;
  }
  return '#000000';
}
