// The six interface languages, their native names, and the locales of Ant Design and dayjs that follow them.
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@genset/protocol';
import type { Locale } from 'antd/es/locale';
import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';

dayjs.extend(localizedFormat);

export const LANGUAGE_STORAGE_KEY = 'lang';

/** Each language's name written in that language, so anyone can find their own. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  'en-US': 'English',
  'zh-CN': '简体中文',
  'zh-TW': '繁體中文',
  'ru-RU': 'Русский',
  'es-ES': 'Español',
  'tr-TR': 'Türkçe',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function storedLanguage(): Language {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    // storage may be blocked (private mode, embedded frames); fall back to the default
  }
  return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
}

/** Keeps the choice and reloads, so every string, date and component locale starts over in the new language. */
export function switchLanguage(lang: Language): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
  } catch {
    // nothing to keep; the reload still shows the default
  }
  window.location.reload();
}

const antdLocales: Record<Language, () => Promise<{ default: Locale }>> = {
  'en-US': () => import('antd/es/locale/en_US'),
  'zh-CN': () => import('antd/es/locale/zh_CN'),
  'zh-TW': () => import('antd/es/locale/zh_TW'),
  'ru-RU': () => import('antd/es/locale/ru_RU'),
  'es-ES': () => import('antd/es/locale/es_ES'),
  'tr-TR': () => import('antd/es/locale/tr_TR'),
};

const dayjsLocales: Record<Language, { name: string; load: () => Promise<unknown> }> = {
  'en-US': { name: 'en', load: () => Promise.resolve() },
  'zh-CN': { name: 'zh-cn', load: () => import('dayjs/locale/zh-cn') },
  'zh-TW': { name: 'zh-tw', load: () => import('dayjs/locale/zh-tw') },
  'ru-RU': { name: 'ru', load: () => import('dayjs/locale/ru') },
  'es-ES': { name: 'es', load: () => import('dayjs/locale/es') },
  'tr-TR': { name: 'tr', load: () => import('dayjs/locale/tr') },
};

export async function loadAntdLocale(lang: Language): Promise<Locale> {
  return (await antdLocales[lang]()).default;
}

export async function loadDayjsLocale(lang: Language): Promise<void> {
  const entry = dayjsLocales[lang];
  await entry.load();
  dayjs.locale(entry.name);
}

export { DEFAULT_LANGUAGE, LANGUAGES };
export type { Language };
