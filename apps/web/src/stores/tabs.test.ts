import { describe, expect, it } from 'vitest';
import { addView, applyClose, HOME_VIEW, nextLocation, restoreViews, type VisitedView } from './tabs.ts';

const view = (path: string): VisitedView => ({ path, fullPath: path, title: path });
const strip = [HOME_VIEW, view('/a'), view('/b'), view('/c'), view('/d')];
const paths = (views: VisitedView[]) => views.map((v) => v.path);

describe('tag strip', () => {
  it('adds a view once and updates its query', () => {
    const once = addView(strip, view('/b'));
    expect(once).toBe(strip);
    const updated = addView(strip, { ...view('/b'), fullPath: '/b?x=1' });
    expect(updated.find((v) => v.path === '/b')?.fullPath).toBe('/b?x=1');
    expect(paths(addView(strip, view('/e')))).toEqual(['/index', '/a', '/b', '/c', '/d', '/e']);
  });

  it('never closes the pinned Home tab', () => {
    expect(paths(applyClose(strip, 'close', '/index'))).toEqual(paths(strip));
    expect(paths(applyClose(strip, 'closeAll', '/b'))).toEqual(['/index']);
    expect(paths(applyClose(strip, 'closeOthers', '/c'))).toEqual(['/index', '/c']);
    expect(paths(applyClose(strip, 'closeLeft', '/c'))).toEqual(['/index', '/c', '/d']);
    expect(paths(applyClose(strip, 'closeRight', '/b'))).toEqual(['/index', '/a', '/b']);
  });

  it('stays when the active tab survives', () => {
    const left = applyClose(strip, 'close', '/b');
    expect(nextLocation(left, '/d', '/b', 'close')).toBeNull();
  });

  it('goes to the last remaining tab after closing the active one, or Home', () => {
    const left = applyClose(strip, 'close', '/b');
    expect(nextLocation(left, '/b', '/b', 'close')).toBe('/d');
    const onlyHome = applyClose(strip, 'closeAll', '/b');
    expect(nextLocation(onlyHome, '/c', '/b', 'closeAll')).toBe('/index');
  });

  it('goes to the tab acted on when close others/left/right removed the active one', () => {
    const others = applyClose(strip, 'closeOthers', '/b');
    expect(nextLocation(others, '/d', '/b', 'closeOthers')).toBe('/b');
    const right = applyClose(strip, 'closeRight', '/b');
    expect(nextLocation(right, '/d', '/b', 'closeRight')).toBe('/b');
  });
});

describe('tag strip kept for the browser tab', () => {
  it('restores the kept views after Home, and Home alone from nothing or from garbage', () => {
    const kept = JSON.stringify([view('/a'), { path: '/b', fullPath: '/b?x=1', titleKey: 'k' }]);
    expect(restoreViews(kept)).toEqual([HOME_VIEW, view('/a'), { path: '/b', fullPath: '/b?x=1', titleKey: 'k' }]);
    expect(restoreViews(null)).toEqual([HOME_VIEW]);
    expect(restoreViews('{not json')).toEqual([HOME_VIEW]);
    expect(restoreViews(JSON.stringify([{ path: 'x' }, 3, view('/index')]))).toEqual([HOME_VIEW]);
  });
});
