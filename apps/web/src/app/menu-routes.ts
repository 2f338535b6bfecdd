// Turns the server's menu tree (RouteEntry[]) into routable pages and into the sidebar's menu (spec 2).
import type { MenuType, RouteEntry } from '@genset/protocol';

export type LayoutKind = 'shell' | 'top' | 'ems' | 'none';

/** M main layout, T top-bar layout, E energy-station layout, C a single page without layout. */
export const LAYOUT_OF: Record<MenuType, LayoutKind> = { M: 'shell', T: 'top', E: 'ems', C: 'none' };

export function isExternalUrl(url: string): boolean {
  return /^(https?:|mailto:|tel:)/i.test(url);
}

export function resolvePath(parentPath: string, url: string): string {
  if (isExternalUrl(url) || url.startsWith('/')) return url;
  const base = parentPath.endsWith('/') ? parentPath : `${parentPath}/`;
  return `${base}${url}`.replace(/\/{2,}/g, '/');
}

export interface Crumb {
  path: string;
  /** Server-localised title (menu entries)… */
  title?: string;
  /** …or a locale key (the console's own pages). */
  titleKey?: string;
}

export interface MenuPage {
  path: string;
  name: string;
  title: string;
  component: string;
  layout: LayoutKind;
  /** The titles from the top of the menu down to this page (the breadcrumb). */
  trail: Crumb[];
}

/**
 * Every page the menu leads to, hidden ones included (hidden means "not in the menu", not "not allowed").
 * The layout of a branch is the type of its top entry, as a layout wraps all the pages below it.
 */
export function collectPages(entries: RouteEntry[], parentPath = '/', layout?: LayoutKind, trail: Crumb[] = []) {
  const pages: MenuPage[] = [];
  for (const entry of entries) {
    if (entry.external) continue;
    const path = resolvePath(parentPath, entry.url);
    const entryLayout = layout ?? LAYOUT_OF[entry.type] ?? 'shell';
    const entryTrail = [...trail, { title: entry.title, path }];
    if (entry.component && (entry.children.length === 0 || !isDirectoryComponent(entry.component))) {
      pages.push({
        path,
        name: entry.name,
        title: entry.title,
        component: entry.component,
        layout: entryLayout,
        trail: entryTrail,
      });
    }
    pages.push(...collectPages(entry.children, path, entryLayout, entryTrail));
  }
  return pages;
}

function isDirectoryComponent(component: string): boolean {
  return /^(layout|parentview|toplayout|emslayout)$/i.test(component);
}

export interface MenuNode {
  key: string;
  path: string;
  title: string;
  ico: string;
  external: boolean;
  children?: MenuNode[];
}

/** The sidebar's tree: hidden entries left out; a parent with one visible child shows as that child. */
export function buildMenu(entries: RouteEntry[], parentPath = '/'): MenuNode[] {
  const nodes: MenuNode[] = [];
  for (const entry of entries) {
    if (!entry.visible) continue;
    const path = resolvePath(parentPath, entry.url);
    const node: MenuNode = {
      key: `${entry.id}:${path}`,
      path,
      title: entry.title,
      ico: entry.ico,
      external: entry.external,
    };
    if (entry.children.length === 0) {
      nodes.push(node);
      continue;
    }
    const children = buildMenu(entry.children, path);
    if (children.length === 0) continue;
    if (children.length === 1) {
      const only = children[0]!;
      nodes.push({ ...only, ico: only.ico || entry.ico });
      continue;
    }
    nodes.push({ ...node, children });
  }
  return nodes;
}

/** Keys of the submenus that lead to `pathname`, to open them. */
export function openKeysFor(nodes: MenuNode[], pathname: string): string[] {
  for (const node of nodes) {
    if (!node.children) continue;
    if (node.children.some((child) => child.path === pathname)) return [node.key];
    const deeper = openKeysFor(node.children, pathname);
    if (deeper.length) return [node.key, ...deeper];
  }
  return [];
}

export function selectedKeyFor(nodes: MenuNode[], pathname: string): string | undefined {
  for (const node of nodes) {
    if (!node.children && node.path === pathname) return node.key;
    const deeper = node.children && selectedKeyFor(node.children, pathname);
    if (deeper) return deeper;
  }
  return undefined;
}
