import { describe, expect, it } from 'vitest';
import { isMaintenanceLink, loginPathFor, safeRedirect, withRedirect } from './public-routes.ts';

describe('redirect after sign-in', () => {
  it('follows same-site paths with their query', () => {
    expect(safeRedirect('/help/info?slug=getting-started')).toBe('/help/info?slug=getting-started');
  });
  it('refuses other sites and loops', () => {
    expect(safeRedirect('https://evil.example')).toBe('/index');
    expect(safeRedirect('//evil.example')).toBe('/index');
    expect(safeRedirect('/\\evil.example')).toBe('/index');
    expect(safeRedirect('/login?redirect=/x')).toBe('/index');
    expect(safeRedirect(null)).toBe('/index');
  });
  it('round-trips through the login query', () => {
    const path = '/help/info?slug=a&x=1';
    const url = new URL(loginPathFor(path), 'http://localhost');
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('redirect')).toBe(path);
  });
  it('keeps the page to come back to between sign-in and registration', () => {
    const back = '/genset/subscribe?code=AB12&x=1';
    const url = new URL(withRedirect('/register', back), 'http://localhost');
    expect(url.pathname).toBe('/register');
    expect(url.searchParams.get('redirect')).toBe(back);
    expect(withRedirect('/register', null)).toBe('/register');
  });
});

describe('maintenance links', () => {
  it('are public only on the maintain tab with a maintenance token', () => {
    expect(isMaintenanceLink('/top/maintain', '?mtoken=abc')).toBe(true);
    expect(isMaintenanceLink('/top/maintain', '?token=abc')).toBe(false);
    expect(isMaintenanceLink('/top/realtime', '?mtoken=abc')).toBe(false);
    expect(isMaintenanceLink('/top/maintain', '?mtoken=')).toBe(false);
  });
});
