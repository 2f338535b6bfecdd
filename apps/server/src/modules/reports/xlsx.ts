// A saved report as an XLSX workbook (the library the set and history exports use): the title and the lines
// about it, the header fields as label–value pairs, then the table of six rows with each column's decimals.
import ExcelJS from 'exceljs';
import type { ReportDocument } from './document.ts';

const numFmt = (decimals: number) => (decimals > 0 ? `0.${'0'.repeat(decimals)}` : '0');

export async function reportXlsx(doc: ReportDocument, sheetName: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.created = new Date();
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31), {
    pageSetup: { orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0, paperSize: 9 },
  });
  const width = Math.max(doc.columns.length, 4);
  sheet.addRow([`${doc.title} — ${doc.setName}`]).font = { bold: true, size: 14 };
  for (const line of doc.lines) sheet.addRow([line]);
  sheet.addRow([]);
  for (const field of doc.header) {
    const row = sheet.addRow([field.label, field.value]);
    row.getCell(1).font = { bold: true };
    if (typeof field.value === 'number') row.getCell(2).numFmt = numFmt(field.decimals);
  }
  sheet.addRow([]);
  const head = sheet.addRow(doc.columns.map((c) => c.label));
  head.font = { bold: true };
  head.alignment = { wrapText: true, vertical: 'top' };
  head.eachCell((cell) => {
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFF0F0F0' } };
    cell.border = { bottom: { style: 'thin' } };
  });
  for (const values of doc.rows) {
    const row = sheet.addRow(values.map((v) => (v === '' ? null : v)));
    doc.columns.forEach((c, i) => {
      if (c.numeric) row.getCell(i + 1).numFmt = numFmt(c.decimals);
    });
    row.alignment = { vertical: 'top', wrapText: true };
  }
  sheet.addRow([]);
  sheet.addRow([doc.summaryLabel]).font = { bold: true };
  const summary = sheet.addRow([doc.summary]);
  summary.alignment = { wrapText: true, vertical: 'top' };
  if (doc.summary) sheet.mergeCells(summary.number, 1, summary.number, width);
  sheet.addRow([]);
  sheet.addRow([doc.generated]).font = { italic: true, color: { argb: 'FF808080' } };
  sheet.columns.forEach((column, i) => {
    column.width = i === 0 ? 24 : doc.columns[i]?.numeric === false ? 30 : 14;
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
