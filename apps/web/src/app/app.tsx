// The whole console: providers around the router.
import type { Locale } from 'antd/es/locale';
import { BrowserRouter } from 'react-router';
import { Providers } from './providers.tsx';
import { RouteGuard } from './route-guard.tsx';
import { ScrollToTop } from './scroll-to-top.tsx';
import { DocumentTitle } from './document-title.tsx';

export function App({ antdLocale }: { antdLocale: Locale }) {
  return (
    <Providers antdLocale={antdLocale}>
      <BrowserRouter>
        <DocumentTitle />
        <ScrollToTop />
        <RouteGuard />
      </BrowserRouter>
    </Providers>
  );
}
