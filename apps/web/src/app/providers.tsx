// Query cache, Ant Design (the console's theme, the language's locale) and the toast/dialog bridge.
import type { ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale';
import { QueryClientProvider } from '@tanstack/react-query';
import { FeedbackBridge } from './feedback-bridge.tsx';
import { queryClient } from './query-client.ts';
import { theme } from './theme.ts';

export function Providers({ antdLocale, children }: { antdLocale: Locale; children: ReactNode }) {
  return (
    // no space inserted between two Chinese characters of a button ("登录", not "登 录")
    <ConfigProvider locale={antdLocale} theme={theme} button={{ autoInsertSpace: false }}>
      <AntApp>
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
