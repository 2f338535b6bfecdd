// The console's Ant Design theme: the default theme with the colours that carry text moved darker within their own
// hue, so that every text meets WCAG AA contrast (4.5:1) on the ground it is drawn on, at rest and under the
// pointer. There is one light theme; the dark parts of the console (the side menu, the wall display's header)
// draw white text on navy, which antd's dark menu already reads at AA.
import type { ThemeConfig } from 'antd';
import { reducedMotion } from './motion.ts';

/**
 * Tag text on its tint: antd writes a coloured tag's word in the 7th shade of its palette on the 1st, which
 * reads below 4.5:1 for the light hues; those take the 8th or 9th shade of the same palette (a green tag stays
 * green, an orange one orange). Red, magenta, blue, geekblue and purple already read above AA.
 */
export const TAG_TEXT = {
  green: '#237804',
  cyan: '#006d75',
  orange: '#ad4e00',
  volcano: '#ad2102',
  gold: '#874d00',
  yellow: '#876800',
  lime: '#3f6600',
} as const;

/** The 7th shade under both of antd's names for it ("green7", "green-7": one CSS variable, the later name wins). */
const tagTextTokens = Object.fromEntries(
  Object.entries(TAG_TEXT).flatMap(([hue, color]) => [
    [`${hue}7`, color],
    [`${hue}-7`, color],
  ]),
);

/**
 * Seeds moved darker within antd's own palettes: primary blue-7 instead of blue-6 (links, primary buttons,
 * selected menu items) with a hover shade that keeps white text and blue links at AA, error red-7, warning and
 * success text of tags and messages at gold/green-8 and darker, on their usual light tints; secondary and
 * tertiary text at 62 % and placeholders at 58 % instead of 45 % and 25 % black. No motion for those who asked
 * for less.
 *
 * Ant Design's component styles come from its stylesheet (imported in main.tsx), not made in the browser: made at
 * run time they took a fifth to a third of the script time of opening a page. The seeds above still reach them, as the CSS
 * variables the stylesheet reads.
 */
export const theme: ThemeConfig = {
  zeroRuntime: true,
  token: {
    motion: !reducedMotion,
    colorPrimary: '#0958d9',
    colorInfo: '#0958d9',
    // under the pointer a button or a link lightens, but only as far as its text still reads at AA
    colorPrimaryHover: '#1f6bdc',
    colorLinkHover: '#1f6bdc',
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
    // placeholders, danger buttons and warning text read at AA contrast too
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.58)',
    colorError: '#cf1322',
    // warning and success: the word of a status tag on its tint (gold and green, darker)
    colorWarning: '#965a00',
    colorWarningBg: '#fffbe6',
    colorWarningBorder: '#ffe58f',
    colorSuccess: '#237804',
    colorSuccessBg: '#f6ffed',
    colorSuccessBorder: '#b7eb8f',
    ...tagTextTokens,
  },
};
