// The page audit: every page of the manager's menu, and each set, station and group page of the demo, in English,
// Simplified Chinese and Russian, on a desktop (1440×900) and a phone (390×844). One test per language and size
// (so that they run side by side); inside a test the pages are opened within the single-page app, without
// reloading it. On each page one look at the DOM finds
//   - text clipped by its box without an ellipsis and a title to read it whole, text under a table's fixed
//     column that no scrolling reveals, a word or a number broken across lines;
//   - labels whose boxes overlap, chart texts included (titles, legends, axis names: ECharts draws them on a
//     canvas, so they are read from the chart's own display list);
//   - on a phone, sideways scrolling of the page and controls running past their card;
//   - a raw translation key, a raw enum code or an ISO timestamp in visible text;
//   - in Chinese and Russian, Latin-script words other than the demo's own names and an allow-list of proper
//     names and international abbreviations;
// and axe-core's serious and critical findings are asked for once per page (English, desktop). Each page also loads
// under the server's Content-Security-Policy without a violation (the browser's reports and its console's).
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import AxeBuilder from '@axe-core/playwright';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { computeSign, DEFAULT_SIGN_SECRET, type RouteEntry } from '@genset/protocol';
import { test, expect } from './fixtures.ts';
import { apiLogin, baseUrl, useToken } from './helpers.ts';
import { openInApp, watchCspViolations } from './in-app.ts';

const MANAGER = { username: 'manager@example.com', password: 'Demo#2026' };
const ADMIN = { username: 'admin@example.com', password: 'Admin#2026' };
const LANGUAGES = ['en-US', 'zh-CN', 'ru-RU'] as const;
type Language = (typeof LANGUAGES)[number];
const SIZES = [
  { name: 'desktop', width: 1440, height: 900, phone: false },
  { name: 'phone', width: 390, height: 844, phone: true },
] as const;

/** Every key of the console's English texts ("layout.user.exit", …): none may show as such. */
function translationKeys(): Set<string> {
  const keys = new Set<string>();
  const dir = join(import.meta.dirname, '..', 'apps', 'web', 'src', 'i18n', 'locales', 'en-US');
  const walk = (prefix: string, node: unknown) => {
    if (node && typeof node === 'object')
      for (const [k, v] of Object.entries(node as Record<string, unknown>)) walk(`${prefix}.${k}`, v);
    else keys.add(prefix.replace(/_(one|other|few|many|zero|two)$/, ''));
  };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')))
    walk(file.replace(/\.json$/, ''), JSON.parse(readFileSync(join(dir, file), 'utf8')));
  return keys;
}

/**
 * Latin words a Chinese or Russian page may show: product and protocol names, and abbreviations both languages
 * write in Latin letters. Units are not here: Russian writes кВт, Гц, В; Chinese writes kW, Hz, V (below).
 */
const PROPER_NAMES = [
  'ID',
  'SIM',
  'ICCID',
  'IMEI',
  'IMSI',
  'MQTT',
  'SMTP',
  'Twilio',
  'GPS',
  'GNSS',
  'PDF',
  'Excel',
  'XLSX',
  'CSV',
  'QR',
  'PCS',
  'BMS',
  'EMS',
  'PV',
  'SOC',
  'SoC',
  'SOH',
  'OTA',
  'URL',
  'HTTP',
  'HTTPS',
  'API',
  'IP',
  'LTE',
  'NB',
  'IoT',
  'DEMO',
  'Modbus',
  'RTU',
  'TCP',
  'CAN',
  'J1939',
  'ECU',
  'AVR',
  'ATS',
  'UPS',
  'RS485',
  'RS',
  'USB',
  'Wi',
  'Fi',
  'Webhook',
  'HMAC',
  'SHA',
  'JSON',
  'E',
  'mail',
  'SMS',
  'OpenStreetMap',
  'Leaflet',
  'ECharts',
  'Ant',
  'Design',
  'UTC',
  'GMT',
  'Asia',
  'Shanghai',
  'CNY',
  'EUR',
  'USD',
  'RUB',
  'HLS',
  'RTSP',
  'ONVIF',
  'AI',
  'DI',
  'DO',
  'AO',
  'OpenWeatherMap',
  'Amap',
  'AMap',
  'Google',
  'Baidu',
  'WeChat',
  'Android',
  'iOS',
  'Chrome',
  'Windows',
  'Linux',
  'macOS',
  'Safari',
  'Firefox',
  'Edge',
  'WebP',
  'GenComm',
  'mailto',
  'tel',
  'https',
  'Cummins',
  'Perkins',
  'Deep',
  'Sea',
  'Electronics',
];
const CHINESE_UNITS = [
  'hPa',
  'mV',
  'bit',
  'kW',
  'kWh',
  'MW',
  'MWh',
  'kVA',
  'kVAr',
  'kvar',
  'kVarh',
  'Hz',
  'V',
  'A',
  'mA',
  'kV',
  'rpm',
  'r',
  'min',
  'km',
  'h',
  'L',
  'kPa',
  'MPa',
  'bar',
  'PF',
  'MB',
  'KB',
  'GB',
  'kB',
  'dBm',
  'ms',
  's',
  'm',
  'Ah',
  'kg',
  'W',
  'Wh',
  'mm',
  'cm',
];

/** A signed GET or POST as the console makes it; the data, or undefined when the call answers otherwise. */
async function call(request: APIRequestContext, token: string, path: string, body?: object, query?: object) {
  const time = String(Math.floor(Date.now() / 1000));
  const headers = {
    'X-Time': time,
    'X-Sign': computeSign(token, time, process.env.API_SIGN_SECRET ?? DEFAULT_SIGN_SECRET),
    'X-Token': token,
    'X-Timezone': 'Asia/Shanghai',
  };
  const url = `${baseUrl()}/yewu${path}`;
  const response = body
    ? await request.post(url, { headers, data: body })
    : await request.get(url, { headers, params: query as Record<string, string> });
  const envelope = (await response.json().catch(() => null)) as { code: number; data: unknown } | null;
  return envelope?.code === 200 ? envelope.data : undefined;
}

/** Every string of an answer under a name-like key: the demo's own names, which no page translates. */
function namesIn(data: unknown, into: Set<string>) {
  if (Array.isArray(data)) for (const d of data) namesIn(d, into);
  else if (data && typeof data === 'object')
    for (const [k, v] of Object.entries(data)) {
      if (
        typeof v === 'string' &&
        /name|title|nick|user|mail|label|address|model|brand|remark|desc|maker|manufacturer|company|owner/i.test(k)
      )
        into.add(v);
      else namesIn(v, into);
    }
}

interface Target {
  path: string;
  /** What the report calls it. */
  label: string;
}

/** The pages to visit: the menu's (parameters filled with the demo's sets, groups and stations) and the details. */
async function targets(request: APIRequestContext, token: string) {
  const routes = ((await call(request, token, '/getRoute')) ?? []) as RouteEntry[];
  const sets = JSON.parse(process.env.E2E_SETS ?? '{}') as Record<string, string>;
  const setTokens = Object.entries(sets);
  const gensets = setTokens.filter(([name]) => !name.includes('·'));
  const firstSet = gensets[0]![1];
  const stations = (
    ((await call(request, token, '/site/list', undefined, { page: 1, size: 50 })) as {
      list: { token: string; name: string }[];
    }) ?? { list: [] }
  ).list;
  const groups = (
    ((await call(request, token, '/genset/getNav', {})) as { list: { token: string }[] }) ?? {
      list: [],
    }
  ).list;
  const protocols = (
    ((await call(request, token, '/protocol/list', { page: 1, size: 10 })) as {
      list: { id: number }[];
    }) ?? { list: [] }
  ).list;
  const names = new Set<string>(Object.keys(sets));
  for (const [path, body, query] of [
    ['/site/list', undefined, { page: 1, size: 50 }],
    ['/genset/getNav', {}],
    ['/dept/list'],
    ['/role/list', undefined, { page: 1, size: 50 }],
    ['/user/list', undefined, { page: 1, size: 50 }],
    ['/member/list', undefined, { page: 1, size: 50 }],
    ['/ems/template/list', {}],
    ['/maintain/template/list', {}],
    ['/ota/file/list'],
    ['/user/info'],
    ['/company/getUserCompanyList'],
    ['/genset/list', { page: 1, size: 50 }],
    ['/maintain/tasks', { page: 1, size: 50 }],
    ...Object.values(sets).map((t) => ['/maintain/plan', { token: t }]),
    ...Object.values(sets).map((t) => ['/video/list', { token: t }]),
    ...Object.values(sets).map((t) => ['/genset/info', { token: t }]),
  ] as [string, object?, object?][])
    namesIn(await call(request, token, path, body, query), names);

  const list: Target[] = [];
  const walk = (entries: RouteEntry[], parent: string) => {
    for (const entry of entries) {
      if (entry.external) continue;
      const path = entry.url.startsWith('/') ? entry.url : `${parent.replace(/\/$/, '')}/${entry.url}`;
      const directory = /^(layout|parentview|toplayout|emslayout)$/i.test(entry.component);
      if (entry.component && !directory) {
        if (path.includes(':id')) {
          // a protocol's pages: those of the first protocol
          if (protocols[0]) list.push({ path: path.replace(':id', String(protocols[0].id)), label: path });
        } else if (path.includes(':token')) {
          const fill = path.startsWith('/genset/groups/')
            ? groups.map((g) => g.token)
            : path.startsWith('/site/')
              ? stations.map((s) => s.token)
              : path.startsWith('/crewmanage/detail/')
                ? setTokens.map(([, t]) => t)
                : path.startsWith('/baoxiu/')
                  ? []
                  : [firstSet];
          for (const t of fill) list.push({ path: path.replace(':token', encodeURIComponent(t)), label: path });
        } else if (path.startsWith('/ems/')) {
          for (const s of stations) list.push({ path: `${path}?token=${encodeURIComponent(s.token)}`, label: path });
        } else if (path === '/crewmanage/gconfig' || path === '/crewmanage/monitorVideo') {
          list.push({ path: `${path}?token=${encodeURIComponent(firstSet)}`, label: path });
        } else list.push({ path, label: path });
      }
      walk(entry.children, path);
    }
  };
  walk(routes, '/');
  // a set's history and alarms (the menu's own pages ask for a set first), and the alarms' analysis
  for (const path of ['/genset/history', '/genset/alarms'])
    list.push({ path: `${path}?token=${encodeURIComponent(firstSet)}`, label: `${path}?token` });
  list.push({ path: '/genset/alarms?view=analytics', label: '/genset/alarms?view=analytics' });
  // each genset's live page
  for (const [, t] of gensets)
    list.push({ path: `/top/realtime?token=${encodeURIComponent(t)}`, label: '/top/realtime' });
  // AUDIT_PAGES (a pattern of paths) audits only those pages: a look at one page while it is being changed
  const only = process.env.AUDIT_PAGES ? new RegExp(process.env.AUDIT_PAGES) : null;
  return {
    list: only ? list.filter((t) => only.test(t.path)) : list,
    names: [...names].filter((n) => n.trim().length > 0),
  };
}

interface Finding {
  check: string;
  text: string;
  where?: string;
}

/** The DOM look at one page; everything in one evaluate. */
function inspect(options: { phone: boolean; lang: Language }): { findings: Finding[]; texts: string[] } {
  const findings: Finding[] = [];
  const texts: string[] = [];
  const vw = window.innerWidth;
  const OVERLAYS =
    '.ant-modal-root, .ant-drawer, .ant-popover, .ant-tooltip, .ant-select-dropdown, .ant-picker-dropdown, ' +
    '.ant-dropdown, .ant-message, .ant-notification, .ant-image-preview-root, .leaflet-pane, .leaflet-control-attribution, ' +
    '[aria-hidden="true"], .ant-typography-ellipsis-measure, .ant-select-selection-search, .ant-scroll-number';
  const styles = new Map<Element, CSSStyleDeclaration>();
  const style = (e: Element) => {
    let s = styles.get(e);
    if (!s) styles.set(e, (s = getComputedStyle(e)));
    return s;
  };
  const describe = (e: Element) => {
    const parts: string[] = [];
    for (let n: Element | null = e; n && parts.length < 3; n = n.parentElement) {
      const id = n.getAttribute('data-testid');
      parts.push(n.tagName.toLowerCase() + (id ? `[data-testid=${id}]` : n.classList[0] ? `.${n.classList[0]}` : ''));
    }
    return parts.reverse().join(' > ');
  };
  const titled = (e: Element) => {
    for (let n: Element | null = e, i = 0; n && i < 8; n = n.parentElement, i++)
      if (n.getAttribute('title') || n.getAttribute('data-tooltip')) return true;
    return false;
  };
  const ellipsised = (from: Element, to: Element) => {
    for (let n: Element | null = from; n; n = n.parentElement) {
      const s = style(n);
      if (s.textOverflow === 'ellipsis' || Number(s.webkitLineClamp) > 0) return true;
      if (n === to) break;
    }
    return false;
  };
  const clips = (s: CSSStyleDeclaration) => s.overflowX !== 'visible' || s.overflowY !== 'visible';
  /** Whether an Ant Design tab strip shows its more-menu (the "…" at its end listing the tabs beyond its edges). */
  const moreMenu = (strip: Element) => {
    const menu = strip.closest('.ant-tabs-nav')?.querySelector(':scope > .ant-tabs-nav-operations');
    return !!menu && menu.checkVisibility({ visibilityProperty: true });
  };
  const scrolls = (s: CSSStyleDeclaration) => /auto|scroll/.test(s.overflowX) || /auto|scroll/.test(s.overflowY);

  const stuckAncestor = (e: Element) => {
    for (let n: Element | null = e; n && n !== document.body; n = n.parentElement) {
      if (n.matches('.ant-table-cell, .ant-table-thead, .ant-table-header')) continue;
      const p = style(n).position;
      if (p === 'fixed' || p === 'sticky') return n;
    }
    return null;
  };
  interface Piece {
    el: Element;
    text: string;
    rects: DOMRect[];
    fixedCell: Element | null;
    /** The bar stuck to the viewport (position fixed or sticky) the text is on, if any. */
    stuck: Element | null;
  }
  const pieces: Piece[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
    const el = node.parentElement;
    if (!text || !el || el.closest('script, style, noscript, svg, canvas') || el.closest(OVERLAYS)) continue;
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const all = [...range.getClientRects()].filter((r) => r.width > 0.5 && r.height > 0.5);
    if (!all.length) continue;
    // the part of the text that its clipping ancestors let show
    let visible = all.map((r) => new DOMRect(r.x, r.y, r.width, r.height));
    let clipped: { by: Element; scrolling: boolean } | null = null;
    for (let n: Element | null = el; n && n !== document.documentElement; n = n.parentElement) {
      const s = style(n);
      if (!clips(s)) continue;
      const box = n.getBoundingClientRect();
      const inner = new DOMRect(box.x + n.clientLeft, box.y + n.clientTop, n.clientWidth, n.clientHeight);
      if (n === document.body || inner.width === 0) continue;
      const cut = visible.some(
        (r) =>
          r.left < inner.left - 1 || r.right > inner.right + 1 || r.top < inner.top - 2 || r.bottom > inner.bottom + 2,
      );
      if (cut && !clipped) clipped = { by: n, scrolling: scrolls(s) };
      visible = visible
        .map((r) => {
          const left = Math.max(r.left, inner.left);
          const right = Math.min(r.right, inner.right);
          const top = Math.max(r.top, inner.top);
          const bottom = Math.min(r.bottom, inner.bottom);
          return new DOMRect(left, top, right - left, bottom - top);
        })
        .filter((r) => r.width > 0.5 && r.height > 0.5);
    }
    if (!visible.length) continue;
    texts.push(text);
    if (clipped) {
      const inTable = !!clipped.by.closest('.ant-table-content, .ant-table-body, .ant-table-header');
      const horizontalScroller = clipped.scrolling && clipped.by.scrollWidth > clipped.by.clientWidth + 1;
      // a table, or a scrolling box that says so, is read by scrolling it; a box that cuts its text must end it in
      // an ellipsis and carry the whole text in a title
      // (a phone shows no scroll bar until one scrolls, so there only a drawn hint counts)
      const hinted =
        clipped.by.closest('[data-scroll-hint]') ||
        (!options.phone &&
          clipped.by.getBoundingClientRect().height - clipped.by.clientHeight - clipped.by.clientTop * 2 > 2);
      // a tab bar longer than its strip slides within it (the strip clips the list of tabs) and lists the tabs
      // beyond its edges in its more-menu: a tab cut at the strip's edge is reached there, so it is not a finding
      // (a strip cutting tabs without that menu is one, below)
      const tabInItsStrip = clipped.by.matches('.ant-tabs-nav-wrap') && !!el.closest('.ant-tabs-tab');
      if (
        !(clipped.scrolling && (inTable || hinted || !horizontalScroller)) &&
        !(ellipsised(el, clipped.by) && titled(el)) &&
        !(tabInItsStrip && moreMenu(clipped.by))
      )
        findings.push({ check: 'clipped', text, where: describe(el) });
    }
    // a word or a number broken across lines (line boxes of one text node on different rows)
    const rows = new Set(all.map((r) => Math.round(r.top)));
    if (rows.size > 1 && !/[\u3000-\u9fff]/.test(text) && !/:\/\/|@/.test(text)) {
      const words = text.split(' ').length;
      const numeric = /^[\d\s.,:/\-–+%°]+\s*[^\s\d]{0,4}$/.test(text);
      // a table sizes its columns to fit and may wrap a date at its space; elsewhere a short number, date or
      // time stays on one line
      if (rows.size > words || (numeric && text.length <= 24 && !el.closest('.ant-table')))
        findings.push({ check: 'broken across lines', text, where: describe(el) });
    }
    pieces.push({
      el,
      text,
      rects: visible,
      fixedCell: el.closest(
        '.ant-table-cell-fix-right, .ant-table-cell-fix-left, .ant-table-cell-fix-start, .ant-table-cell-fix-end',
      ),
      stuck: stuckAncestor(el),
    });
  }

  // a tab strip whose tabs run past its edges shows its more-menu, so that every tab stays reachable
  for (const strip of document.querySelectorAll('.ant-tabs-nav-wrap')) {
    if (strip.closest(OVERLAYS) || !strip.checkVisibility()) continue;
    const box = strip.getBoundingClientRect();
    const beyond = [...strip.querySelectorAll(':scope > .ant-tabs-nav-list > .ant-tabs-tab')].filter((tab) => {
      const r = tab.getBoundingClientRect();
      return r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1;
    });
    if (beyond.length && !moreMenu(strip))
      findings.push({
        check: 'tabs past their strip without a more-menu',
        text: beyond.map((tab) => (tab.textContent ?? '').trim()).join(', '),
        where: describe(strip),
      });
  }

  // labels that overlap
  const overlaps = (a: DOMRect, b: DOMRect) => {
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return w > 2 && h > 3;
  };
  for (let i = 0; i < pieces.length; i++) {
    const a = pieces[i]!;
    for (let j = i + 1; j < pieces.length; j++) {
      const b = pieces[j]!;
      if (a.el === b.el || !a.rects.some((ra) => b.rects.some((rb) => overlaps(ra, rb)))) continue;
      // a bar stuck to the screen (a page's action bar, a header) passes over the content by design
      if (a.stuck !== b.stuck) continue;
      const fixed = a.fixedCell ?? b.fixedCell;
      if (fixed && !(a.fixedCell && b.fixedCell)) {
        // under a fixed column is fine while scrolling the table brings the text out
        const scroller = fixed.closest('.ant-table-content, .ant-table-body');
        if (scroller && scroller.scrollWidth > scroller.clientWidth + 1) continue;
      }
      findings.push({ check: 'overlap', text: `${a.text} ⟷ ${b.text}`, where: describe(a.el) });
    }
  }

  // chart texts that overlap (ECharts draws them on its canvas)
  for (const box of document.querySelectorAll('[_echarts_instance_]')) {
    const chart = (box as Element & { echartsInstance?: unknown }).echartsInstance as
      { getZr(): { storage: { getDisplayList(update?: boolean): ChartText[] } }; isDisposed(): boolean } | undefined;
    if (!chart || chart.isDisposed() || !box.checkVisibility()) continue;
    type Rect = {
      x: number;
      y: number;
      width: number;
      height: number;
      clone(): Rect;
      applyTransform(m: unknown): void;
    };
    type ChartText = {
      type: string;
      invisible?: boolean;
      style?: { text?: string; opacity?: number };
      getBoundingRect(): Rect;
      getComputedTransform(): unknown;
      __clipPaths?: { getBoundingRect(): Rect; getComputedTransform(): unknown }[];
    };
    const labels: { text: string; r: DOMRect }[] = [];
    for (const d of chart.getZr().storage.getDisplayList(true)) {
      const text = d.style?.text;
      if (d.type !== 'text' || d.invisible || !text || !String(text).trim() || d.style?.opacity === 0) continue;
      const r = d.getBoundingRect().clone();
      const m = d.getComputedTransform();
      if (m) r.applyTransform(m);
      let rect = new DOMRect(r.x, r.y, r.width, r.height);
      for (const clip of d.__clipPaths ?? []) {
        const c = clip.getBoundingRect().clone();
        const cm = clip.getComputedTransform();
        if (cm) c.applyTransform(cm);
        const left = Math.max(rect.left, c.x);
        const right = Math.min(rect.right, c.x + c.width);
        const top = Math.max(rect.top, c.y);
        const bottom = Math.min(rect.bottom, c.y + c.height);
        rect = new DOMRect(left, top, right - left, bottom - top);
      }
      if (rect.width > 0.5 && rect.height > 0.5) labels.push({ text: String(text), r: rect });
    }
    for (let i = 0; i < labels.length; i++)
      for (let j = i + 1; j < labels.length; j++)
        if (overlaps(labels[i]!.r, labels[j]!.r))
          findings.push({
            check: 'chart overlap',
            text: `${labels[i]!.text} ⟷ ${labels[j]!.text}`,
            where: describe(box),
          });
    // chart texts count as visible text too
    for (const l of labels) texts.push(l.text);
  }

  if (options.phone) {
    if (document.documentElement.scrollWidth > vw + 1 || document.body.scrollWidth > vw + 1)
      findings.push({ check: 'page scrolls sideways', text: `${document.documentElement.scrollWidth}px wide` });
    const content = document.querySelector('main, .ant-layout-content');
    for (let n = content; n && n !== document.body; n = n.parentElement)
      if (scrolls(style(n)) && n.scrollWidth > n.clientWidth + 1)
        findings.push({
          check: 'page scrolls sideways',
          text: `${n.scrollWidth}px in ${n.clientWidth}px`,
          where: describe(n),
        });
    // controls running past their card
    for (const control of document.querySelectorAll(
      '.ant-card .ant-picker, .ant-card .ant-select, .ant-card .ant-input, .ant-card .ant-input-affix-wrapper, .ant-card .ant-btn, .ant-card .ant-segmented',
    )) {
      if (control.closest(OVERLAYS) || !control.checkVisibility()) continue;
      const card = control.closest('.ant-card')!;
      let scroller = false;
      for (let n = control.parentElement; n && n !== card; n = n.parentElement) if (clips(style(n))) scroller = true;
      if (scroller) continue;
      const r = control.getBoundingClientRect();
      const c = card.getBoundingClientRect();
      if (r.right > c.right + 1 || r.left < c.left - 1)
        findings.push({
          check: 'past its card',
          text: (control.textContent ?? '').trim().slice(0, 40),
          where: describe(control),
        });
    }
  }
  // placeholders are text people read too
  for (const input of document.querySelectorAll<HTMLInputElement>('input[placeholder], textarea[placeholder]'))
    if (input.checkVisibility() && !input.value && !input.closest(OVERLAYS)) texts.push(input.placeholder);
  return { findings, texts };
}

const KEYS = translationKeys();

/**
 * Names the other browser tests give what they add while the audit runs (the lists and the operation log show
 * them, deleted ones too): sets named "Zulu …" (to sort after the demo's), "Form set …", departments "Dept …",
 * subscribers "Sub …".
 */
const TEST_MADE_NAMES = [/Zulu[^«»“”"]*/g, /Form set \d+/g, /\bDept [a-z0-9]+/g, /\bSub \d+/g];

/** The checks of the visible text: raw keys, raw codes, ISO timestamps, Latin words in Chinese and Russian. */
function textFindings(texts: string[], lang: Language, names: string[]): Finding[] {
  const findings: Finding[] = [];
  const allowed = new Set([...PROPER_NAMES, ...(lang === 'zh-CN' ? CHINESE_UNITS : [])]);
  // longest names first, so that a name containing another is taken whole (with those the other browser tests
  // give the sets they add meanwhile)
  const sorted = [...names].sort((a, b) => b.length - a.length);
  for (const raw of new Set(texts)) {
    // addresses and e-mail addresses are data
    const text = raw.replace(/\S+@\S+\.\S+/g, ' ').replace(/https?:\/\/\S+/g, ' ');
    for (const token of text.match(/[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)+/g) ?? [])
      if (KEYS.has(token)) findings.push({ check: 'raw translation key', text: raw });
    if (
      /\b[a-z]+(?:_[a-z0-9]+)+\b/.test(text) ||
      /\b[A-Z]{2,}(?:_[A-Z0-9]+)+\b/.test(text) ||
      /\b[a-z]{2,}[A-Z][a-z]{2,}\w*\b/.test(text)
    )
      findings.push({ check: 'raw code', text: raw });
    if (/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text)) findings.push({ check: 'ISO timestamp', text: raw });
    if (lang !== 'en-US') {
      let rest = text;
      for (const name of sorted) if (rest.includes(name)) rest = rest.split(name).join(' ');
      for (const made of TEST_MADE_NAMES) rest = rest.replace(made, ' ');
      // a name in quotes is a name (a webhook's, a camera's: what people call them)
      rest = rest.replace(/«[^»]*»|“[^”]*”|「[^」]*」|"[^"]*"/g, ' ');
      // codes are not words: serial and model numbers (letters with digits), abbreviations in capitals,
      // identifiers written-with-hyphens, time zone names (Europe/Madrid)
      rest = rest
        .replace(/\b[A-Z][a-z]+\/[A-Za-z_]+\b/g, ' ')
        .replace(/[A-Za-z0-9]*\d[A-Za-z0-9]*/g, ' ')
        .replace(/\b[a-z0-9]+(?:-[a-z0-9]+)+\b/g, ' ')
        .replace(/\b[A-Z]{2,}s?\b/g, ' ');
      const latin = (rest.match(/[A-Za-z][A-Za-z'’]*/g) ?? []).filter((w) => w.length > 1 && !allowed.has(w));
      if (latin.length) findings.push({ check: 'Latin words', text: `${latin.join(' ')} — in “${raw.slice(0, 80)}”` });
    }
  }
  return findings;
}

/**
 * Findings of other open points of the same issue, not of this page's layout: printed on each run, not failing
 * it, until their own fix lands (then the entry is reported as no longer seen and should go).
 */
const KNOWN: { check: string; page: RegExp; text: RegExp; why: string }[] = [];

function isKnown(path: string, f: Finding) {
  const line = `${f.text}${f.where ? `  (${f.where})` : ''}`;
  return KNOWN.find((k) => f.check.startsWith(k.check) && k.page.test(path) && k.text.test(line));
}

/** The page's Content-Security-Policy violations since the last call (reported to the page or on its console). */
const cspViolations = new WeakMap<Page, () => Promise<Finding[]>>();

async function signIn(page: Page, size: (typeof SIZES)[number], lang: Language, account = MANAGER) {
  await page.setViewportSize({ width: size.width, height: size.height });
  const taken = await watchCspViolations(page);
  cspViolations.set(page, async () => (await taken()).map((text) => ({ check: 'CSP violation', text })));
  const token = (await apiLogin(page.request, account)).utoken;
  await useToken(page.context(), token);
  const found = await targets(page.request, token);
  await page.goto('/index');
  await page.evaluate((l) => localStorage.setItem('lang', l), lang);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  await expect(page.getByTestId('welcome')).toBeVisible();
  return found;
}

function lines(path: string, findings: Finding[]) {
  return [...new Set(findings.map((f) => `${path} — ${f.check}: ${f.text}${f.where ? `  (${f.where})` : ''}`))];
}

for (const lang of LANGUAGES)
  for (const size of SIZES)
    test(`page audit: ${lang}, ${size.name} ${size.width}×${size.height}`, async ({ page }) => {
      test.setTimeout(360_000);
      const started = Date.now();
      const { list, names } = await signIn(page, size, lang);
      const report: string[] = [];
      const known: string[] = [];
      const slow: string[] = [];
      for (const target of list) {
        const pageStarted = Date.now();
        await openInApp(page, target.path);
        const { findings, texts } = await page.evaluate(inspect, { phone: size.phone, lang });
        findings.push(...textFindings(texts, lang, names), ...(await cspViolations.get(page)!()));
        report.push(
          ...lines(
            target.path,
            findings.filter((f) => !isKnown(target.path, f)),
          ),
        );
        known.push(
          ...lines(
            target.path,
            findings.filter((f) => isKnown(target.path, f)),
          ),
        );
        if (Date.now() - pageStarted > 2500) slow.push(`${target.path} ${Date.now() - pageStarted} ms`);
      }
      console.log(
        `page audit ${lang} ${size.name}: ${list.length} pages checked in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
          `(the audit: ${list.length} pages × ${LANGUAGES.length} languages × ${SIZES.length} sizes = ` +
          `${list.length * LANGUAGES.length * SIZES.length})` +
          (slow.length ? `; slow: ${slow.join(', ')}` : '') +
          (known.length ? `\n  open elsewhere (${known.length}):\n  ${known.join('\n  ')}` : ''),
      );
      expect(report, `${report.length} finding(s) in ${lang} at ${size.width}×${size.height}`).toEqual([]);
    });

// The protocol tables are the platform administrator's: their pages, in English on a desktop and in Russian on
// a phone (the longest words on the least room), with the same checks.
for (const [lang, size] of [
  ['en-US', SIZES[0]],
  ['ru-RU', SIZES[1]],
] as const)
  test(`page audit: protocol pages of the platform administrator, ${lang}, ${size.name}`, async ({ page }) => {
    const started = Date.now();
    const { list, names } = await signIn(page, size, lang, ADMIN);
    const pages = list.filter((p) => p.path.startsWith('/com/'));
    expect(pages.length).toBeGreaterThan(5);
    const report: string[] = [];
    for (const target of pages) {
      await openInApp(page, target.path);
      const { findings, texts } = await page.evaluate(inspect, { phone: size.phone, lang });
      // a protocol document is made of its items' keys: here they are the content, not raw codes nor words
      findings.push(
        ...textFindings(texts, lang, names).filter(
          (f) => f.check !== 'raw code' && !(f.check === 'Latin words' && /— in “[a-z][a-z0-9_]*”$/.test(f.text)),
        ),
        ...(await cspViolations.get(page)!()),
      );
      report.push(
        ...lines(
          target.path,
          findings.filter((f) => !isKnown(target.path, f)),
        ),
      );
    }
    console.log(
      `page audit protocols ${lang} ${size.name}: ${pages.length} pages in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(report).toEqual([]);
  });

/**
 * axe-core's rules whose findings are only ever moderate or minor (landmarks, heading order, a page's one h1, an
 * empty header cell …): the audit keeps serious and critical findings alone, so these are not run (a fifth of axe's
 * time on a list page).
 */
const MILD_RULES = [
  'region',
  'landmark-one-main',
  'landmark-complementary-is-top-level',
  'landmark-banner-is-top-level',
  'landmark-contentinfo-is-top-level',
  'landmark-main-is-top-level',
  'landmark-no-duplicate-banner',
  'landmark-no-duplicate-contentinfo',
  'landmark-no-duplicate-main',
  'landmark-unique',
  'heading-order',
  'page-has-heading-one',
  'empty-heading',
  'empty-table-header',
  'meta-viewport-large',
  'presentation-role-conflict',
  'image-redundant-alt',
  'table-duplicate-name',
  'skip-link',
  'aria-allowed-role',
];

// axe-core takes seconds a page: its pages are shared between two tests that run side by side
for (const half of [0, 1])
  test(`page audit: axe-core on each page once (en-US, desktop), part ${half + 1} of 2`, async ({ page }) => {
    // (axe takes seconds a page: about two minutes for the half on a quiet machine, over three on a busy one)
    test.setTimeout(420_000);
    const started = Date.now();
    // colours are judged at rest: with motion, a button's colour still fading from disabled to enabled (as a list's
    // export button does when the list arrives) read as too little contrast
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const { list } = await signIn(page, SIZES[0], 'en-US');
    const report: string[] = [];
    const known: string[] = [];
    const seen = new Set<string>();
    // one page of each kind: the same page of another set is built the same way
    const kinds = list.filter((t) => !seen.has(t.label) && seen.add(t.label));
    for (const target of kinds.filter((_, i) => i % 2 === half)) {
      await openInApp(page, target.path);
      const result = await new AxeBuilder({ page })
        .exclude('.leaflet-pane')
        .disableRules(MILD_RULES)
        .options({ resultTypes: ['violations'] })
        .analyze();
      const findings = result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({
          check: `axe ${v.id}`,
          text: v.nodes
            .map((n) => n.target.join(' '))
            .join(', ')
            .slice(0, 300),
        }));
      report.push(
        ...lines(
          target.path,
          findings.filter((f) => !isKnown(target.path, f)),
        ),
      );
      known.push(
        ...lines(
          target.path,
          findings.filter((f) => isKnown(target.path, f)),
        ),
      );
    }
    console.log(
      `page audit axe part ${half + 1}: ${Math.ceil((kinds.length - half) / 2)} of ${kinds.length} pages in ${((Date.now() - started) / 1000).toFixed(1)} s` +
        (known.length ? `\n  open elsewhere (${known.length}):\n  ${known.join('\n  ')}` : ''),
    );
    expect(report).toEqual([]);
  });
