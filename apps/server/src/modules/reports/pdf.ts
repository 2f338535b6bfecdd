// A saved report as a PDF page (A4 landscape; more pages only when remarks and summary are long): title, the
// lines about it, the header fields in a grid, the table of six rows, the summary. Text is laid out here rather
// than by PDFKit's own line breaking because one line may need several faces (see fonts.ts): each run of
// characters is measured and drawn in the first face that has them, and lines break between words, or between
// any two characters of Chinese.
import PDFDocument from 'pdfkit';
import type { Language } from '@genset/protocol';
import { formatNumber, type ReportDocument } from './document.ts';
import type { FontStack, ReportFace } from './fonts.ts';

const PAGE = { width: 841.89, height: 595.28, margin: 36 };
const GREY = '#666666';
const RULE = '#bbbbbb';

type Pdf = PDFKit.PDFDocument;

interface Style {
  size: number;
  bold?: boolean;
  color?: string;
  align?: 'left' | 'right' | 'center';
}

/** Breaks allowed anywhere next to these (CJK ideographs, kana, full-width forms and punctuation). */
const CJK = '\\u2e80-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff\\uff00-\\uffef\\u3000-\\u303f';
/** Runs of spaces, single CJK characters, and runs of anything else (words). */
const TOKENS = new RegExp(`\\s+|[${CJK}]|[^\\s${CJK}]+`, 'gu');

interface Piece {
  text: string;
  face: ReportFace | null;
  width: number;
  space: boolean;
}

export function createPdfWriter(fonts: FontStack) {
  /** The face for a character: the first of the stack that has it; null means PDF's own Helvetica. */
  function faceFor(faces: ReportFace[], ch: string): ReportFace | null {
    const cp = ch.codePointAt(0)!;
    return faces.find((f) => f.has(cp)) ?? faces[0] ?? null;
  }

  function useFace(doc: Pdf, face: ReportFace | null, style: Style) {
    doc.font(face ? face.name : style.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(style.size);
  }

  /** Words, spaces and single CJK characters, each in one face, with their widths. */
  function pieces(doc: Pdf, text: string, style: Style): Piece[] {
    const faces = style.bold ? fonts.bold : fonts.regular;
    const tokens = text.match(TOKENS) ?? [];
    const out: Piece[] = [];
    for (const token of tokens) {
      const space = /^\s+$/.test(token);
      // A word may mix scripts ("Şantiye-上海"): split it where the face changes.
      let run = '';
      let runFace: ReportFace | null | undefined;
      const flush = () => {
        if (!run) return;
        useFace(doc, runFace ?? null, style);
        out.push({ text: run, face: runFace ?? null, width: doc.widthOfString(run), space });
        run = '';
      };
      for (const ch of space ? ' ' : token) {
        const face = faceFor(faces, ch);
        if (run && face !== runFace) flush();
        runFace = face;
        run += ch;
      }
      flush();
    }
    return out;
  }

  /** Lines of pieces that fit `width`; a word wider than the line is cut between characters. */
  function lines(doc: Pdf, text: string, width: number, style: Style): Piece[][] {
    const result: Piece[][] = [];
    for (const paragraph of text.split(/\r?\n/)) {
      let line: Piece[] = [];
      let used = 0;
      const push = () => {
        while (line.length && line[line.length - 1]!.space) line.pop();
        result.push(line);
        line = [];
        used = 0;
      };
      const place = (piece: Piece) => {
        if (piece.space && line.length === 0) return;
        if (used + piece.width > width && line.length > 0) {
          push();
          if (piece.space) return;
        }
        if (piece.width > width && [...piece.text].length > 1) {
          // Too long for any line: character by character.
          for (const ch of piece.text) {
            useFace(doc, piece.face, style);
            const w = doc.widthOfString(ch);
            if (used + w > width && line.length) push();
            line.push({ text: ch, face: piece.face, width: w, space: false });
            used += w;
          }
          return;
        }
        line.push(piece);
        used += piece.width;
      };
      for (const piece of pieces(doc, paragraph, style)) place(piece);
      push();
    }
    return result;
  }

  const lineHeight = (style: Style) => style.size * 1.35;

  /** The widest word of the text (a size at which the text needs no word cut). */
  function widestWord(doc: Pdf, text: string, style: Style): number {
    return Math.max(0, ...pieces(doc, text, style).map((p) => (p.space ? 0 : p.width)));
  }

  /** Height the text takes in a box of `width`. */
  function measure(doc: Pdf, text: string, width: number, style: Style): number {
    return lines(doc, text, width, style).length * lineHeight(style);
  }

  /** Draws the text in a box of `width` from (x, y); returns its height. */
  function write(doc: Pdf, text: string, x: number, y: number, width: number, style: Style): number {
    const all = lines(doc, text, width, style);
    doc.fillColor(style.color ?? '#000000');
    all.forEach((line, i) => {
      const used = line.reduce((n, p) => n + p.width, 0);
      let at = style.align === 'right' ? x + width - used : style.align === 'center' ? x + (width - used) / 2 : x;
      for (const piece of line) {
        useFace(doc, piece.face, style);
        // On a common baseline: faces of different scripts have different ascents.
        doc.text(piece.text, at, y + i * lineHeight(style) + style.size, { lineBreak: false, baseline: 'alphabetic' });
        at += piece.width;
      }
    });
    return all.length * lineHeight(style);
  }

  return function reportPdf(model: ReportDocument, lang: Language): Promise<Buffer> {
    const doc = new PDFDocument({
      size: 'A4',
      layout: 'landscape',
      margin: PAGE.margin,
      info: { Title: `${model.title} — ${model.setName}`, Creator: 'Genset cloud console' },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    const done = new Promise<Buffer>((resolve, reject) => {
      doc.on('end', () => resolve(Buffer.concat(chunks)));
      doc.on('error', reject);
    });
    for (const face of [...fonts.regular, ...fonts.bold]) {
      if (face.postscriptName) doc.registerFont(face.name, face.data, face.postscriptName);
      else doc.registerFont(face.name, face.data);
    }

    const left = PAGE.margin;
    const width = PAGE.width - 2 * PAGE.margin;
    const bottom = PAGE.height - PAGE.margin;
    let y = PAGE.margin;
    const room = (h: number) => {
      if (y + h > bottom) {
        doc.addPage();
        y = PAGE.margin;
      }
    };
    const text = (value: string | number | null, decimals: number) =>
      value === null || value === '' ? '—' : typeof value === 'number' ? formatNumber(lang, value, decimals) : value;

    y += write(doc, `${model.title} — ${model.setName}`, left, y, width, { size: 16, bold: true });
    y += 2;
    for (const line of model.lines) y += write(doc, line, left, y, width, { size: 9, color: GREY });
    y += 8;

    // Header fields: four label–value pairs a line.
    const perLine = 4;
    const cell = width / perLine;
    for (let i = 0; i < model.header.length; i += perLine) {
      const group = model.header.slice(i, i + perLine);
      const heights = group.map((f) => {
        const labelH = measure(doc, f.label, cell - 8, { size: 7.5 });
        return labelH + measure(doc, text(f.value, f.decimals), cell - 8, { size: 10 });
      });
      const h = Math.max(...heights) + 6;
      room(h);
      group.forEach((f, j) => {
        const x = left + j * cell;
        const labelH = write(doc, f.label, x, y, cell - 8, { size: 7.5, color: GREY });
        write(doc, text(f.value, f.decimals), x, y + labelH, cell - 8, { size: 10 });
      });
      y += h;
    }
    y += 6;

    // The table: text columns (period, remarks) wider than the numbers.
    const textColumns = model.columns.filter((c) => !c.numeric).length;
    const textWidth = Math.min(130, width / (model.columns.length / 2));
    const numWidth = (width - textColumns * textWidth) / (model.columns.length - textColumns);
    const widths = model.columns.map((c) => (c.numeric ? numWidth : textWidth));
    const pad = 3;
    const headStyle: Style = { size: model.columns.length > 10 ? 6.5 : 7.5, bold: true };
    const cellStyle: Style = { size: model.columns.length > 10 ? 7.5 : 8.5 };
    // Column titles shrink (down to 5 pt) rather than have a word cut in two.
    const headSize = Math.max(
      5,
      Math.min(
        headStyle.size,
        ...model.columns.map((c, i) => {
          const widest = widestWord(doc, c.label, headStyle);
          return widest > 0 ? (headStyle.size * (widths[i]! - 2 * pad)) / widest : headStyle.size;
        }),
      ),
    );
    headStyle.size = Math.floor(headSize * 10) / 10;
    const drawRow = (values: string[], style: Style, shade: boolean, numeric: boolean[]) => {
      const h = Math.max(...values.map((v, i) => measure(doc, v, widths[i]! - 2 * pad, style))) + 2 * pad;
      room(h);
      if (shade) doc.rect(left, y, width, h).fill('#f0f0f0');
      let x = left;
      values.forEach((v, i) => {
        write(doc, v, x + pad, y + pad, widths[i]! - 2 * pad, {
          ...style,
          align: numeric[i] && !shade ? 'right' : 'left',
        });
        x += widths[i]!;
      });
      doc
        .moveTo(left, y + h)
        .lineTo(left + width, y + h)
        .lineWidth(0.5)
        .strokeColor(RULE)
        .stroke();
      y += h;
    };
    const numeric = model.columns.map((c) => c.numeric);
    drawRow(
      model.columns.map((c) => c.label),
      headStyle,
      true,
      numeric,
    );
    for (const row of model.rows) {
      drawRow(
        row.map((v, i) => text(v, model.columns[i]!.decimals)),
        cellStyle,
        false,
        numeric,
      );
    }
    y += 12;

    room(30);
    y += write(doc, model.summaryLabel, left, y, width, { size: 9, bold: true });
    for (const paragraph of (model.summary || '—').split(/\r?\n/)) {
      const h = measure(doc, paragraph, width, { size: 9.5 });
      room(h);
      y += write(doc, paragraph, left, y, width, { size: 9.5 });
    }
    y += 10;
    room(14);
    write(doc, model.generated, left, y, width, { size: 7.5, color: GREY });
    doc.end();
    return done;
  };
}
