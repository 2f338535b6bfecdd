// One vocabulary of set states: in each language one word per state, the same in the console (its catalogue's
// gensets.status), in what the server writes (list exports, history exports) and in the controllers' own
// stopped/running readings of the seed protocols; the states' words differ from each other, from the alarm
// levels' words and from the overlay's word; a station's strategy has one name ("tactic" is not another one).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, LAYOUT_G_ENGINE_STATES, SET_STATES, layoutEPcs, type Language } from '@genset/protocol';
import { translate } from '../src/i18n/messages.ts';

const LOCALES = join(import.meta.dirname, '../../web/src/i18n/locales');

function web(lang: Language, file: string): any {
  return JSON.parse(readFileSync(join(LOCALES, lang, `${file}.json`), 'utf8'));
}

describe.each(LANGUAGES)('%s', (lang) => {
  const words = web(lang, 'gensets').status as Record<string, string>;

  it('says each state with the console’s one word, on the server too', () => {
    SET_STATES.forEach((state, code) => {
      expect(translate(lang, `gensets.status.${state}`), state).toBe(words[state]);
      expect(translate(lang, `history.status.${code}`), state).toBe(words[state]);
    });
  });

  it('keeps the states, the overlay and the alarm levels apart', () => {
    const states = SET_STATES.map((s) => words[s]);
    expect(new Set(states).size).toBe(states.length);
    expect(states).not.toContain(words.alarm);
    const levels = [
      ...Object.values(web(lang, 'gensets').levels as Record<string, string>),
      ...Object.values(web(lang, 'live').levels as Record<string, string>),
      ...Object.values(web(lang, 'protocols').levels as Record<string, string>),
    ];
    for (const level of levels) expect(states, level).not.toContain(level);
  });

  it('has the controllers’ stopped and running readings in the same words', () => {
    expect(LAYOUT_G_ENGINE_STATES.find((s) => s.value === 0)!.label[lang]).toBe(words.shutdown);
    expect(LAYOUT_G_ENGINE_STATES.find((s) => s.value === 4)!.label[lang]).toBe(words.running);
    const pcsState = layoutEPcs.items.find((i) => i.key === 'pcs_state')!;
    expect(pcsState.enum!.find((o) => o.value === 0)!.label[lang]).toBe(words.shutdown);
    expect(pcsState.enum!.find((o) => o.value === 1)!.label[lang]).toBe(words.standby);
  });

  it('says offline for a set and for a station alike', () => {
    expect(web(lang, 'ems').status.offline).toBe(words.offline);
    expect(translate(lang, 'sites.status.offline')).toBe(words.offline);
    // a lost realtime connection reads offline too, as in English
    expect(web(lang, 'live').connection.lost).toBe(words.offline);
  });

  it('names a station’s strategy with one word', () => {
    const tactic: Record<string, RegExp> = {
      'en-US': /\btactics?\b/i,
      'ru-RU': /тактик/i,
      'es-ES': /táctic/i,
      'tr-TR': /takti[kğ]/i,
    };
    const pattern = tactic[lang];
    if (!pattern) return;
    const texts: string[] = [];
    const collect = (v: unknown) => {
      if (typeof v === 'string') texts.push(v);
      else if (v && typeof v === 'object') Object.values(v).forEach(collect);
    };
    for (const file of readdirSync(join(LOCALES, lang))) collect(web(lang, file.replace(/\.json$/, '')));
    expect(texts.filter((t) => pattern.test(t))).toEqual([]);
    for (const key of [
      'sites.noTactic',
      'sites.tacticBusy',
      'sites.tacticAccepted',
      'sites.run.tacticSent',
      'log.siteTactic',
    ])
      expect(translate(lang, key), key).not.toMatch(pattern);
  });
});
