// Texts in the six console languages, as carried by protocol documents (item names, alarm titles, labels).
import { z } from 'zod';

export const PROTOCOL_LANGUAGES = ['en-US', 'zh-CN', 'zh-TW', 'ru-RU', 'es-ES', 'tr-TR'] as const;
export type ProtocolLanguage = (typeof PROTOCOL_LANGUAGES)[number];

const translation = z.string({ error: 'missing translation' }).trim().min(1, { error: 'missing translation' });

/** Every language is required: a register map shown half in English is a bug, not a fallback. */
export const protocolTextSchema = z.strictObject({
  'en-US': translation,
  'zh-CN': translation,
  'zh-TW': translation,
  'ru-RU': translation,
  'es-ES': translation,
  'tr-TR': translation,
});
export type ProtocolText = z.output<typeof protocolTextSchema>;

/** Builds a text in the fixed order en-US, zh-CN, zh-TW, ru-RU, es-ES, tr-TR. */
export function protocolText(en: string, zhCN: string, zhTW: string, ru: string, es: string, tr: string): ProtocolText {
  return { 'en-US': en, 'zh-CN': zhCN, 'zh-TW': zhTW, 'ru-RU': ru, 'es-ES': es, 'tr-TR': tr };
}
