import { describe, expect, it } from 'vitest';
import type { RouteEntry } from '@genset/protocol';
import { buildMenu, collectPages, openKeysFor, resolvePath, selectedKeyFor } from './menu-routes.ts';

let nextId = 1;
function entry(partial: Partial<RouteEntry> & Pick<RouteEntry, 'url' | 'title'>): RouteEntry {
  return {
    id: nextId++,
    type: 'M',
    name: partial.title,
    ico: '',
    component: '',
    visible: true,
    external: false,
    children: [],
    ...partial,
  };
}

const tree: RouteEntry[] = [
  entry({ url: '/index', title: 'Home', component: 'home/index', ico: 'HomeOutlined' }),
  entry({
    url: '/gensets',
    title: 'Gensets',
    ico: 'ThunderboltOutlined',
    children: [
      entry({ url: 'list', title: 'My gensets', component: 'genset/list' }),
      entry({ url: 'hidden', title: 'Hidden', component: 'genset/hidden', visible: false }),
      entry({ url: '/monitor', title: 'Monitor', component: 'monitor/index' }),
    ],
  }),
  entry({
    url: '/help',
    title: 'Help',
    ico: 'QuestionCircleOutlined',
    children: [
      entry({ url: 'list', title: 'Manual', component: 'help/list' }),
      entry({ url: 'info', title: 'Page', component: 'help/info', visible: false }),
    ],
  }),
  entry({ url: 'https://example.com/docs', title: 'Docs', external: true }),
  entry({
    url: '/top',
    title: 'Set',
    type: 'T',
    visible: false,
    children: [entry({ url: 'realtime', title: 'Realtime', component: 'top/realtime' })],
  }),
  entry({ url: '/bigscreen', title: 'Big screen', type: 'C', component: 'screen/index' }),
];

describe('menu routes', () => {
  it('joins relative and keeps absolute paths', () => {
    expect(resolvePath('/gensets', 'list')).toBe('/gensets/list');
    expect(resolvePath('/gensets/', '/monitor')).toBe('/monitor');
    expect(resolvePath('/', 'https://x.y')).toBe('https://x.y');
  });

  it('collects every page with its layout and breadcrumb, hidden ones too', () => {
    const pages = collectPages(tree);
    expect(pages.map((p) => [p.path, p.layout])).toEqual([
      ['/index', 'shell'],
      ['/gensets/list', 'shell'],
      ['/gensets/hidden', 'shell'],
      ['/monitor', 'shell'],
      ['/help/list', 'shell'],
      ['/help/info', 'shell'],
      ['/top/realtime', 'top'],
      ['/bigscreen', 'none'],
    ]);
    expect(pages.find((p) => p.path === '/gensets/list')?.trail.map((c) => c.title)).toEqual(['Gensets', 'My gensets']);
  });

  it('leaves hidden entries out of the menu and shows a single visible child in place of its parent', () => {
    const menu = buildMenu(tree);
    expect(menu.map((n) => n.title)).toEqual(['Home', 'Gensets', 'Manual', 'Docs', 'Big screen']);
    expect(menu[1]?.children?.map((n) => n.title)).toEqual(['My gensets', 'Monitor']);
    expect(menu[2]).toMatchObject({ path: '/help/list', ico: 'QuestionCircleOutlined' });
    expect(menu[3]).toMatchObject({ external: true, path: 'https://example.com/docs' });
  });

  it('finds the open submenu and the selected item of a path', () => {
    const menu = buildMenu(tree);
    expect(openKeysFor(menu, '/monitor')).toEqual([menu[1]!.key]);
    expect(selectedKeyFor(menu, '/monitor')).toBe(menu[1]!.children![1]!.key);
    expect(selectedKeyFor(menu, '/nowhere')).toBeUndefined();
  });
});
