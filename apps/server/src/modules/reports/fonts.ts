// Fonts of PDF reports. A report may hold Chinese (simplified and traditional), Cyrillic and Turkish letters in
// one line, and no single free font file covers all of them, so a report is written with a stack of faces and
// each run of characters takes the first face that has them: the files of REPORT_FONTS, then the packaged Noto
// Sans (Latin, Cyrillic, Turkish) and Noto Sans Hans (Chinese), then Debian's fonts where they are installed.
// Without any, PDF's own Helvetica is used and only Western European letters show; the log says what to install.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as fontkit from 'fontkit';
import type { FastifyBaseLogger } from 'fastify';

export interface ReportFace {
  /** Name the PDF knows it by. */
  name: string;
  path: string;
  /** Face inside a collection (.ttc). */
  postscriptName?: string;
  bold: boolean;
  has(codePoint: number): boolean;
  data: Buffer;
}

export interface FontStack {
  regular: ReportFace[];
  bold: ReportFace[];
  /** Scripts of the report languages that no face covers (empty when all show). */
  missing: string[];
}

/** A folder of an installed package, found from its entry point (these packages export no font paths). */
function packageDir(name: string): string | null {
  try {
    let dir = dirname(fileURLToPath(import.meta.resolve(name)));
    while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
    return dir;
  } catch {
    return null;
  }
}

interface Candidate {
  path: string;
  postscriptName?: string;
  bold: boolean;
}

function candidates(extra: readonly string[]): Candidate[] {
  const latin = packageDir('@embedpdf/fonts-latin');
  const hans = packageDir('@embedpdf/fonts-sc');
  const debian = '/usr/share/fonts';
  return [
    ...extra.map((path) => ({ path, bold: false })),
    ...(latin
      ? [
          { path: join(latin, 'fonts/NotoSans-Regular.ttf'), bold: false },
          { path: join(latin, 'fonts/NotoSans-Bold.ttf'), bold: true },
        ]
      : []),
    ...(hans
      ? [
          { path: join(hans, 'fonts/NotoSansHans-Regular.otf'), bold: false },
          { path: join(hans, 'fonts/NotoSansHans-Bold.otf'), bold: true },
        ]
      : []),
    { path: `${debian}/truetype/dejavu/DejaVuSans.ttf`, bold: false },
    { path: `${debian}/truetype/dejavu/DejaVuSans-Bold.ttf`, bold: true },
    { path: `${debian}/opentype/noto/NotoSansCJK-Regular.ttc`, postscriptName: 'NotoSansCJKsc-Regular', bold: false },
    { path: `${debian}/opentype/noto/NotoSansCJK-Bold.ttc`, postscriptName: 'NotoSansCJKsc-Bold', bold: true },
    { path: `${debian}/truetype/wqy/wqy-microhei.ttc`, postscriptName: 'WenQuanYiMicroHei', bold: false },
    { path: `${debian}/truetype/wqy/wqy-zenhei.ttc`, postscriptName: 'WenQuanYiZenHei', bold: false },
    { path: `${debian}/truetype/droid/DroidSansFallbackFull.ttf`, bold: false },
  ];
}

/** One letter of each script the console's languages write, and what to call the script in the log. */
const SCRIPTS: [string, string][] = [
  ['Latin', 'Aéñ'],
  ['Turkish', 'ğşİı'],
  ['Cyrillic', 'Жё'],
  ['Chinese (simplified)', '发电机组'],
  ['Chinese (traditional)', '發電機組'],
];

function load(c: Candidate, index: number): ReportFace | null {
  if (!existsSync(c.path)) return null;
  try {
    const data = readFileSync(c.path);
    const opened = fontkit.create(data, c.postscriptName);
    // A collection without the named face answers the collection itself.
    const font = 'hasGlyphForCodePoint' in opened ? opened : null;
    if (!font) return null;
    return {
      name: `F${index}`,
      path: c.path,
      ...(c.postscriptName ? { postscriptName: c.postscriptName } : {}),
      bold: c.bold,
      has: (cp) => font.hasGlyphForCodePoint(cp),
      data,
    };
  } catch {
    return null;
  }
}

let stack: FontStack | null = null;

/** The faces found (read once), regular and bold; a bold run falls back to the regular faces. */
export function reportFonts(extra: readonly string[] = [], log?: FastifyBaseLogger): FontStack {
  if (stack) return stack;
  const faces = candidates(extra)
    .map(load)
    .filter((f): f is ReportFace => f !== null);
  const regular = faces.filter((f) => !f.bold);
  const bold = faces.filter((f) => f.bold);
  const missing = SCRIPTS.filter(([, sample]) =>
    [...sample].some((ch) => !regular.some((f) => f.has(ch.codePointAt(0)!))),
  ).map(([script]) => script);
  stack = { regular, bold: [...bold, ...regular], missing };
  if (missing.length)
    log?.warn(
      { missing, tried: candidates(extra).map((c) => c.path) },
      'PDF reports cannot show every language: install a font that covers these scripts (Debian: fonts-noto-cjk, fonts-dejavu-core) or name one in REPORT_FONTS',
    );
  else log?.debug({ fonts: faces.map((f) => f.path) }, 'PDF report fonts');
  return stack;
}

/** Forgets the faces read (tests that change REPORT_FONTS). */
export function forgetReportFonts() {
  stack = null;
}
