// The tag strip of visited pages (spec 2): Home is pinned; closing rules are pure functions so they are
// easy to test, the store only applies them.
import { create } from 'zustand';

export const HOME_PATH = '/index';

export interface VisitedView {
  /** Path without query; identifies the tab. */
  path: string;
  /** Path with query; what the tab navigates to. */
  fullPath: string;
  /** A locale key for the console's own pages… */
  titleKey?: string;
  /** …or a title the server already localised (menu routes). */
  title?: string;
  pinned?: boolean;
}

export const HOME_VIEW: VisitedView = {
  path: HOME_PATH,
  fullPath: HOME_PATH,
  titleKey: 'layout.routes.home',
  pinned: true,
};

export type CloseAction = 'close' | 'closeOthers' | 'closeLeft' | 'closeRight' | 'closeAll';

export function addView(views: VisitedView[], view: VisitedView): VisitedView[] {
  const index = views.findIndex((v) => v.path === view.path);
  if (index === -1) return [...views, view];
  const current = views[index]!;
  const merged = { ...current, fullPath: view.fullPath, title: view.title ?? current.title };
  if (merged.fullPath === current.fullPath && merged.title === current.title) return views;
  return views.map((v, i) => (i === index ? merged : v));
}

/** The views left after an action on the tab at `path`; pinned tabs always stay. */
export function applyClose(views: VisitedView[], action: CloseAction, path: string): VisitedView[] {
  const index = views.findIndex((v) => v.path === path);
  if (index === -1 && action !== 'closeAll') return views;
  return views.filter((v, i) => {
    if (v.pinned) return true;
    switch (action) {
      case 'close':
        return v.path !== path;
      case 'closeOthers':
        return v.path === path;
      case 'closeLeft':
        return i >= index;
      case 'closeRight':
        return i <= index;
      case 'closeAll':
        return false;
    }
  });
}

/**
 * Where to go after closing: nowhere while the active tab survives; otherwise the tab acted on when it
 * survives (close others, left, right), else the last remaining tab, else Home.
 */
export function nextLocation(
  remaining: VisitedView[],
  activePath: string,
  actedOn: string,
  action: CloseAction,
): string | null {
  if (remaining.some((v) => v.path === activePath)) return null;
  if (action !== 'close' && action !== 'closeAll') {
    const target = remaining.find((v) => v.path === actedOn);
    if (target) return target.fullPath;
  }
  return remaining.at(-1)?.fullPath ?? HOME_PATH;
}

export interface TabsState {
  views: VisitedView[];
  visit(view: VisitedView): void;
  /** Applies a close action and returns where to navigate, or null to stay. */
  close(action: CloseAction, path: string, activePath: string): string | null;
  reset(): void;
}

/** The strip is kept for the browser tab (sessionStorage), so that a reload keeps the visited pages. */
export const TABS_STORAGE_KEY = 'tags-view';

/** The views kept for this browser tab: Home first, then valid entries; Home alone when none are kept. */
export function restoreViews(stored: string | null): VisitedView[] {
  if (!stored) return [HOME_VIEW];
  try {
    const parsed: unknown = JSON.parse(stored);
    if (!Array.isArray(parsed)) return [HOME_VIEW];
    const views = parsed.filter(
      (v): v is VisitedView =>
        typeof v === 'object' &&
        v !== null &&
        typeof (v as VisitedView).path === 'string' &&
        typeof (v as VisitedView).fullPath === 'string' &&
        (v as VisitedView).path.startsWith('/') &&
        (v as VisitedView).path !== HOME_PATH,
    );
    return [
      HOME_VIEW,
      ...views.map((v) => ({
        path: v.path,
        fullPath: v.fullPath,
        ...(typeof v.titleKey === 'string' ? { titleKey: v.titleKey } : {}),
        ...(typeof v.title === 'string' ? { title: v.title } : {}),
      })),
    ];
  } catch {
    return [HOME_VIEW];
  }
}

function readStored(): string | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(TABS_STORAGE_KEY);
  } catch {
    return null;
  }
}

function keep(views: VisitedView[]) {
  try {
    if (typeof sessionStorage === 'undefined') return;
    if (views.length <= 1) sessionStorage.removeItem(TABS_STORAGE_KEY);
    else sessionStorage.setItem(TABS_STORAGE_KEY, JSON.stringify(views.filter((v) => !v.pinned)));
  } catch {
    // storage full or refused: the strip still works for this page
  }
}

export const useTabs = create<TabsState>()((set, get) => ({
  views: restoreViews(readStored()),
  visit(view) {
    const views = addView(get().views, view);
    if (views !== get().views) {
      set({ views });
      keep(views);
    }
  },
  close(action, path, activePath) {
    const views = applyClose(get().views, action, path);
    set({ views });
    keep(views);
    return nextLocation(views, activePath, path, action);
  },
  reset() {
    set({ views: [HOME_VIEW] });
    keep([HOME_VIEW]);
  },
}));
