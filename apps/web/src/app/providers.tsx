// Query cache, Ant Design (default theme, the language's locale) and the toast/dialog bridge.
import type { ReactNode } from 'react';
import { App as AntApp, ConfigProvider, type ThemeConfig } from 'antd';
import type { Locale } from 'antd/es/locale';
import { QueryClientProvider } from '@tanstack/react-query';
import { FeedbackBridge } from './feedback-bridge.tsx';
import { queryClient } from './query-client.ts';

/**
 * Ant Design's default theme, with two seeds moved one step darker within its own palette so that text meets
 * WCAG AA contrast: primary blue-7 instead of blue-6 (links, primary buttons, selected menu items) and
 * secondary and tertiary text at 62 % instead of 45 % black.
 */
const theme: ThemeConfig = {
  token: {
    colorPrimary: '#0958d9',
    colorInfo: '#0958d9',
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
  },
};

export function Providers({ antdLocale, children }: { antdLocale: Locale; children: ReactNode }) {
  return (
    <ConfigProvider locale={antdLocale} theme={theme}>
      <AntApp>
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
