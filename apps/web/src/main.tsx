// Entry: load the language (strings, Ant Design and dayjs locales) before the first render, then mount.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { config as zodConfig } from 'zod';
import { App } from './app/app.tsx';
import { initI18n } from './i18n/index.ts';
import { openEmbeddedSession } from './api/session.ts';
import { loadAntdLocale, loadDayjsLocale, storedLanguage } from './i18n/languages.ts';
import { registerServiceWorker } from './app/service-worker.ts';
// Ant Design's component styles, written once at build time (the theme asks for no styles made at run time)
import 'antd/dist/antd.css';
import './styles.css';

// zod compiles object schemas with `new Function` when it may; its probe for that alone is a violation of the
// Content-Security-Policy (no 'unsafe-eval'), so the console validates without code generation.
zodConfig({ jitless: true });

async function start(): Promise<void> {
  const lang = storedLanguage();
  document.documentElement.lang = lang;
  const [, antdLocale] = await Promise.all([
    initI18n(lang),
    loadAntdLocale(lang),
    loadDayjsLocale(lang),
    openEmbeddedSession(),
  ]);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App antdLocale={antdLocale} />
    </StrictMode>,
  );
}

void start();
registerServiceWorker();
