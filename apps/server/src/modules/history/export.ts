// The runtime-data export (/genset/exportruntimedata): a set's history over a range as an XLSX workbook
// (written as a stream, so a long range does not hold every cell in memory) or a CSV file, with the column
// titles in the user's language, units in the titles and times in the user's time zone.
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import {
  MAX_EXPORT_ROWS,
  unitIn,
  type DataItem,
  type HistoryRange,
  type HistoryRow,
  type Language,
} from '@genset/protocol';
import { translate } from '../../i18n/messages.ts';
import type { SessionContext } from '../auth/service.ts';
import type { DeviceService } from '../devices/service.ts';
import type { ProtocolStore } from '../devices/protocols.ts';
import { zoneOffset } from '../devices/time.ts';
import { dayLabel, localTime, resolveRange } from './range.ts';
import type { HistoryService } from './service.ts';

const PAGE = 5000;

/** Items worth a column by default: numbers, not bits, states or positions (as the history pickers offer). */
function isMeasurement(item: DataItem): boolean {
  return item.type !== 'bit' && !item.enum && item.group !== 'status' && item.group !== 'location';
}

function csvField(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export interface ExportFile {
  fileName: string;
  contentType: string;
  body: Buffer;
}

export function createRuntimeExport(opts: {
  devices: Pick<DeviceService, 'resolve'>;
  protocols: ProtocolStore;
  history: HistoryService;
}) {
  return async function exportRuntimeData(
    ctx: SessionContext,
    input: {
      token: string;
      items?: string[] | undefined;
      range: HistoryRange;
      start?: number | undefined;
      end?: number | undefined;
      format: 'xlsx' | 'csv';
    },
    lang: Language,
    timeZone: string,
  ): Promise<ExportFile> {
    const { set } = await opts.devices.resolve(ctx, input.token, 'view');
    const doc = (await opts.protocols.get(set.protocol_key))?.doc;
    const items = input.items
      ? await opts.history.itemsFor(set, input.items)
      : (doc?.items ?? []).filter(isMeasurement);
    const r = resolveRange(input);

    const titles = [
      translate(lang, 'history.export.time', { zone: timeZone }),
      translate(lang, 'history.export.status'),
      ...items.map((item) => (item.unit ? `${item.name[lang]} (${unitIn(lang, item.unit)})` : item.name[lang])),
    ];
    const statusName = (s: number | null) => (s === null ? '' : translate(lang, `history.status.${s}`));

    async function* rows(): AsyncGenerator<HistoryRow> {
      for (let offset = 0; offset < MAX_EXPORT_ROWS; offset += PAGE) {
        const page = await opts.history.tableRows(set, items, r, {
          limit: Math.min(PAGE, MAX_EXPORT_ROWS - offset),
          offset,
          order: 'asc',
        });
        yield* page;
        if (page.length < PAGE) return;
      }
    }

    // Characters file systems refuse (and control characters) become '-'.
    const base = [...`${set.name}_${dayLabel(r.start, timeZone)}_${dayLabel(r.end - 1, timeZone)}`]
      .map((c) => (c.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(c) ? '-' : c))
      .join('');

    if (input.format === 'csv') {
      const lines = [titles.map(csvField).join(',')];
      for await (const row of rows()) {
        lines.push(
          [
            localTime(row.ts, timeZone),
            statusName(row.status),
            ...items.map((item) => {
              const v = row.values[item.key];
              return v === null || v === undefined ? '' : String(v);
            }),
          ]
            .map(csvField)
            .join(','),
        );
      }
      // A byte order mark lets spreadsheet programs read the UTF-8 titles correctly.
      return {
        fileName: `${base}.csv`,
        contentType: 'text/csv; charset=utf-8',
        body: Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8'),
      };
    }

    const stream = new PassThrough();
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    const done = new Promise<void>((resolve, reject) => {
      stream.on('end', resolve);
      stream.on('error', reject);
    });
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
    const sheet = workbook.addWorksheet(translate(lang, 'history.export.sheet'), {
      views: [{ state: 'frozen', ySplit: 1 }],
    });
    sheet.columns = titles.map((title, i) => {
      const item = items[i - 2];
      return {
        header: title,
        width: i === 0 ? 20 : Math.max(12, Math.min(40, title.length + 2)),
        style:
          i === 0
            ? { numFmt: 'yyyy-mm-dd hh:mm:ss' }
            : item
              ? { numFmt: item.decimals > 0 ? `0.${'0'.repeat(item.decimals)}` : '0' }
              : {},
      };
    });
    sheet.getRow(1).font = { bold: true };
    sheet.getRow(1).commit();
    for await (const row of rows()) {
      sheet
        .addRow([
          // Excel times carry no zone: the cell shows the wall-clock time of the user's zone.
          new Date(row.ts + zoneOffset(row.ts, timeZone)),
          statusName(row.status),
          ...items.map((item) => row.values[item.key] ?? null),
        ])
        .commit();
    }
    sheet.commit();
    await workbook.commit();
    await done;
    return {
      fileName: `${base}.xlsx`,
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      body: Buffer.concat(chunks),
    };
  };
}
export type RuntimeExport = ReturnType<typeof createRuntimeExport>;
