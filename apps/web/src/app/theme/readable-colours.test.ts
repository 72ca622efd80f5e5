import { readFileSync } from 'node:fs';
import { DEFAULT_THEME } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { AA_TEXT_CONTRAST, contrastRatio, readableOn } from './contrast.test-support';

const { colors, white } = DEFAULT_THEME;
/** The backgrounds text sits on: cards, the page's grey, and a hovered or striped row. */
const SURFACES = [white, colors.gray[0], colors.gray[1]];

/**
 * Each text colour of Mantine's light scheme and what it is shown on: dimmed and error text, links,
 * a colour used as text (`c="green"`: its -text), the outline variant, and the light variant (badges,
 * alerts, active tabs, subtle buttons) on its own tinted background and on the deeper tint a hovered
 * button takes (shade 2: axe caught the Remove wave button hovered at 3.75:1). Each is darkened
 * only as far as it must be.
 */
function readableColours(): Record<string, string> {
  const wanted: Record<string, string> = {
    '--mantine-color-dimmed': readableOn(colors.gray[6], SURFACES),
    '--mantine-color-error': readableOn(colors.red[8], [...SURFACES, colors.red[0]]),
    '--mantine-color-anchor': readableOn(colors.indigo[8], [...SURFACES, colors.indigo[0]]),
  };
  for (const [name, shades] of Object.entries(colors)) {
    if (name === 'dark') continue;
    // A colour as text and the outline variant are both Mantine's shade 8: one readable tone for both.
    const text = readableOn(shades[8], SURFACES);
    wanted[`--mantine-color-${name}-text`] = text;
    wanted[`--mantine-color-${name}-outline`] = text;
    wanted[`--mantine-color-${name}-light-color`] = readableOn(shades[9], [...SURFACES, shades[1], shades[2]]);
  }
  return wanted;
}

describe('readable-colours.css', () => {
  const css = readFileSync(new URL('./readable-colours.css', import.meta.url), 'utf8');
  const declared = Object.fromEntries([...css.matchAll(/(--mantine-[\w-]+):\s*(#[0-9a-f]{6});/g)].map((m) => [m[1]!, m[2]!]));

  it('declares, for each of Mantine text colours, the tone that reads at 4.5:1 (the diff says what to write)', () => {
    expect(declared).toEqual(readableColours());
  });

  it('reaches 4.5:1 on white with every declared colour', () => {
    for (const [name, value] of Object.entries(declared)) expect(contrastRatio(value, white), name).toBeGreaterThanOrEqual(AA_TEXT_CONTRAST);
  });
});
