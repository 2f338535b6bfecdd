// i18next setup: one resource tree per language, built from locales/<lang>/<domain>.json where each file is
// the subtree under its domain name (keys read `auth.login.submit`, `validation.required`, …).
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from './languages.ts';

type LocaleModule = { default: Record<string, unknown> };

const localeFiles = import.meta.glob<LocaleModule>('./locales/*/*.json');

/**
 * Domains every page may need, the public ones included (sign-in, agreement, 404): loaded at start. The
 * others belong to signed-in pages and are loaded with the session (`loadSignedInLocales`), which keeps the
 * sign-in route light.
 */
const START_DOMAINS = new Set(['auth', 'common', 'errors', 'validation', 'legal', 'pages', 'layout']);

export async function loadLocaleResources(
  lang: Language,
  which: (domain: string) => boolean = () => true,
): Promise<Record<string, unknown>> {
  const prefix = `./locales/${lang}/`;
  const entries = Object.entries(localeFiles).filter(
    ([path]) => path.startsWith(prefix) && which(path.slice(prefix.length, -'.json'.length)),
  );
  const loaded = await Promise.all(
    entries.map(async ([path, load]) => [path.slice(prefix.length, -'.json'.length), (await load()).default] as const),
  );
  return Object.fromEntries(loaded);
}

let signedInLoaded: Promise<void> | null = null;

/** The signed-in pages' texts in the current language (once). */
export function loadSignedInLocales(): Promise<void> {
  signedInLoaded ??= (async () => {
    const lang = i18next.language as Language;
    const resources = await loadLocaleResources(lang, (domain) => !START_DOMAINS.has(domain));
    i18next.addResourceBundle(lang, 'translation', resources, true, true);
  })().catch((err: unknown) => {
    signedInLoaded = null;
    throw err;
  });
  return signedInLoaded;
}

export async function initI18n(lang: Language, everything = false): Promise<typeof i18next> {
  const resources = await loadLocaleResources(lang, (domain) => everything || START_DOMAINS.has(domain));
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
