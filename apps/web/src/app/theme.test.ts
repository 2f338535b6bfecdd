// Every text the console's theme colours reads at WCAG AA (4.5:1) on the ground it is drawn on: coloured and status
// tags, buttons small and large at rest and under the pointer, links; and each colour keeps its hue, so that a
// green tag still reads as green and a warning as amber.
import { describe, expect, it } from 'vitest';
import { theme as antdTheme } from 'antd';
import { theme } from './theme.ts';

type Rgb = [number, number, number];

/** "#rgb", "#rrggbb" or "rgba(r, g, b, a)", laid on `ground` when translucent. */
function rgb(color: string, ground: Rgb = [255, 255, 255]): Rgb {
  if (color.startsWith('#')) {
    const short = color.length === 4 || color.length === 5;
    const hex = short ? [...color.slice(1, 4)].map((d) => d + d).join('') : color.slice(1, 7);
    return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
  }
  const [r = 0, g = 0, b = 0, a = 1] = (color.match(/[\d.]+/g) ?? []).map(Number);
  return [r, g, b].map((c, i) => Math.round(c * a + ground[i]! * (1 - a))) as Rgb;
}

function luminance([r, g, b]: Rgb): number {
  const [lr, lg, lb] = [r, g, b].map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * lr! + 0.7152 * lg! + 0.0722 * lb!;
}

function contrast(text: string, ground: string): number {
  const g = rgb(ground);
  const [a, b] = [luminance(rgb(text, g)), luminance(g)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

function hue(color: string): number {
  const [r, g, b] = rgb(color).map((c) => c / 255) as Rgb;
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

const token = antdTheme.getDesignToken(theme);
const plain = antdTheme.getDesignToken();
const PRESETS = [
  'blue',
  'purple',
  'cyan',
  'green',
  'magenta',
  'pink',
  'red',
  'orange',
  'yellow',
  'volcano',
  'geekblue',
  'lime',
  'gold',
] as const;
const AA = 4.5;
const WHITE = '#ffffff';

describe('the console theme reads at AA', () => {
  it('a coloured tag’s word on its tint, every preset colour, keeping its hue', () => {
    for (const c of PRESETS) {
      const text = token[`${c}7`];
      // antd names the shade twice and draws tags with the CSS variable both names share
      expect(token[`${c}-7`], `${c}-7`).toBe(text);
      expect(contrast(text, token[`${c}1`]), `${c} tag`).toBeGreaterThanOrEqual(AA);
      const shift = Math.abs(hue(text) - hue(plain[`${c}6`]));
      expect(Math.min(shift, 360 - shift), `${c} tag hue`).toBeLessThan(15);
    }
  });

  it('status tags (success, processing, warning, error) on their tints, keeping their hue', () => {
    const status = [
      ['success', token.colorSuccess, token.colorSuccessBg, plain.colorSuccess],
      ['processing', token.colorInfo, token.colorInfoBg, plain.colorInfo],
      ['warning', token.colorWarning, token.colorWarningBg, plain.colorWarning],
      ['error', token.colorError, token.colorErrorBg, plain.colorError],
    ] as const;
    for (const [name, text, ground, original] of status) {
      expect(contrast(text, ground), name).toBeGreaterThanOrEqual(AA);
      expect(contrast(text, WHITE), `${name} on white`).toBeGreaterThanOrEqual(AA);
      const shift = Math.abs(hue(text) - hue(original));
      expect(Math.min(shift, 360 - shift), `${name} hue`).toBeLessThan(15);
    }
  });

  it('buttons at rest, under the pointer and pressed; links', () => {
    const pairs = [
      ['primary', token.colorTextLightSolid, token.colorPrimary],
      ['primary, hover', token.colorTextLightSolid, token.colorPrimaryHover],
      ['primary, pressed', token.colorTextLightSolid, token.colorPrimaryActive],
      ['danger primary', token.colorTextLightSolid, token.colorError],
      ['danger primary, hover', token.colorTextLightSolid, token.colorErrorHover],
      ['danger primary, pressed', token.colorTextLightSolid, token.colorErrorActive],
      ['default, hover', token.colorPrimaryHover, WHITE],
      ['default, pressed', token.colorPrimaryActive, WHITE],
      ['danger, hover', token.colorErrorHover, WHITE],
      ['text button', token.colorText, token.colorBgTextHover],
      ['link', token.colorLink, WHITE],
      ['link, hover', token.colorLinkHover, WHITE],
      ['link, pressed', token.colorLinkActive, WHITE],
      ['secondary text', token.colorTextSecondary, WHITE],
      ['secondary text on a grey card', token.colorTextSecondary, '#f5f5f5'],
      ['description', token.colorTextDescription, '#f5f5f5'],
      ['placeholder', token.colorTextPlaceholder, WHITE],
    ] as const;
    for (const [name, text, ground] of pairs) expect(contrast(text, ground), name).toBeGreaterThanOrEqual(AA);
  });
});
