// Layout state: the sidebar (open or collapsed, kept in a cookie) and whether the viewport is mobile.
import { create } from 'zustand';
import { COOKIE, readCookie, writeCookie } from './cookies.ts';

/** Below this width the layout is mobile (spec 2, 9). */
export const MOBILE_BREAKPOINT = 992;

export type Device = 'desktop' | 'mobile';

export interface SettingsState {
  /** Desktop: sidebar expanded (true) or collapsed to icons. Kept in a cookie. */
  sidebarOpened: boolean;
  /** Mobile: the menu drawer is open. Never kept: the mobile menu starts closed. */
  mobileMenuOpen: boolean;
  device: Device;
  toggleSidebar(): void;
  setMobileMenuOpen(open: boolean): void;
  setDevice(device: Device): void;
}

function detectDevice(): Device {
  return typeof window !== 'undefined' && window.innerWidth < MOBILE_BREAKPOINT ? 'mobile' : 'desktop';
}

export const useSettings = create<SettingsState>()((set, get) => ({
  sidebarOpened: readCookie(COOKIE.sidebar) !== '0',
  mobileMenuOpen: false,
  device: detectDevice(),
  toggleSidebar() {
    if (get().device === 'mobile') {
      set({ mobileMenuOpen: !get().mobileMenuOpen });
      return;
    }
    const sidebarOpened = !get().sidebarOpened;
    writeCookie(COOKIE.sidebar, sidebarOpened ? '1' : '0');
    set({ sidebarOpened });
  },
  setMobileMenuOpen(mobileMenuOpen) {
    set({ mobileMenuOpen });
  },
  setDevice(device) {
    if (device !== get().device) set({ device, mobileMenuOpen: false });
  },
}));
