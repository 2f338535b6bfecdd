// Query cache, Ant Design (default theme, the language's locale) and the toast/dialog bridge.
import { useEffect, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale';
import { QueryClientProvider } from '@tanstack/react-query';
import { setFeedback } from '../api/feedback.ts';
import { queryClient } from './query-client.ts';

function FeedbackBridge() {
  const { message, modal } = AntApp.useApp();
  useEffect(() => {
    setFeedback({ message, modal });
    return () => setFeedback(null);
  }, [message, modal]);
  return null;
}

export function Providers({ antdLocale, children }: { antdLocale: Locale; children: ReactNode }) {
  return (
    <ConfigProvider locale={antdLocale}>
      <AntApp>
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
