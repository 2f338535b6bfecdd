// The user manual: Markdown pages per language under ./manual/<lang>/, read once at start-up.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@genset/protocol';
import { notFound } from '../../lib/errors.ts';

export interface ManualPage {
  slug: string;
  title: string;
  markdown: string;
}

const MANUAL_DIR = fileURLToPath(new URL('./manual', import.meta.url));

function loadLanguage(lang: Language): ManualPage[] {
  const dir = join(MANUAL_DIR, lang);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((file) => {
      const markdown = readFileSync(join(dir, file), 'utf8');
      const title = /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim() ?? file;
      return { slug: file.replace(/^\d+-/, '').replace(/\.md$/, ''), title, markdown };
    });
}

export function createHelpService() {
  const pages = new Map<Language, ManualPage[]>(LANGUAGES.map((l) => [l, loadLanguage(l)]));
  const pagesFor = (lang: Language) => {
    const own = pages.get(lang) ?? [];
    return own.length ? own : (pages.get(DEFAULT_LANGUAGE) ?? []);
  };
  return {
    list(lang: Language) {
      return pagesFor(lang).map(({ slug, title }) => ({ slug, title }));
    },
    page(lang: Language, slug: string): ManualPage {
      const page = pagesFor(lang).find((p) => p.slug === slug);
      if (!page) throw notFound();
      return page;
    },
  };
}
