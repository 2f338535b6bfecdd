// i18next setup: one resource tree per language, built from locales/<lang>/<domain>.json where each file is
// the subtree under its domain name (keys read `auth.login.submit`, `validation.required`, …).
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from './languages.ts';

type LocaleModule = { default: Record<string, unknown> };

const localeFiles = import.meta.glob<LocaleModule>('./locales/*/*.json');

export async function loadLocaleResources(lang: Language): Promise<Record<string, unknown>> {
  const prefix = `./locales/${lang}/`;
  const entries = Object.entries(localeFiles).filter(([path]) => path.startsWith(prefix));
  const loaded = await Promise.all(
    entries.map(async ([path, load]) => [path.slice(prefix.length, -'.json'.length), (await load()).default] as const),
  );
  return Object.fromEntries(loaded);
}

export async function initI18n(lang: Language): Promise<typeof i18next> {
  const resources = await loadLocaleResources(lang);
  await i18next.use(initReactI18next).init({
    lng: lang,
    fallbackLng: false,
    resources: { [lang]: { translation: resources } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return i18next;
}

/** Translation outside React (the request layer, stores). */
export function translate(key: string, options?: Record<string, unknown>): string {
  return i18next.t(key, options);
}

export { i18next };
