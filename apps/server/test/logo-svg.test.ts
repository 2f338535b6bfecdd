// SVG logos are parsed and held against an allow-list of drawing elements and attributes: namespaced script,
// animation that writes a javascript: link, handlers, foreignObject and outside references are refused in the
// uploader's language and nothing is kept; what is served from the uploads carries a policy that lets it run
// nothing and fetch nothing, and its type is never guessed.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeSign, DEFAULT_SIGN_SECRET, LANGUAGES } from '@genset/protocol';
import { translate } from '../src/i18n/messages.ts';
import { svgIsSafe } from '../src/modules/company/svg-check.ts';
import { createTestApp, login, type TestApp } from './helpers.ts';

const BOUNDARY = 'svgLogoBoundary';
let t: TestApp;
let platform: string;

beforeAll(async () => {
  t = await createTestApp();
  platform = await login(t.app, 'admin@example.com', 'Admin#2026');
});
afterAll(async () => t.close());

async function uploadLogo(svg: string, lang = 'en-US') {
  const time = String(Math.floor(Date.now() / 1000));
  const res = await t.app.inject({
    method: 'POST',
    url: '/yewu/company/uploadLogo',
    headers: {
      'x-time': time,
      'x-sign': computeSign(platform, time, DEFAULT_SIGN_SECRET),
      'x-token': platform,
      'accept-language': lang,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    },
    payload: Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="logo.svg"\r\n` +
          `Content-Type: image/svg+xml\r\n\r\n`,
      ),
      Buffer.from(svg),
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]),
  });
  return res.json() as { code: number; msg: string; data: { logo: string } | null };
}

const SVG = 'xmlns="http://www.w3.org/2000/svg"';
const UNSAFE: [string, string][] = [
  ['namespaced script', `<svg ${SVG} xmlns:h="http://www.w3.org/1999/xhtml"><h:script>alert(1)</h:script></svg>`],
  [
    'animate writing a javascript: link',
    `<svg ${SVG}><a href="#x"><animate attributeName="href" to="javascript:alert(1)"/><text>x</text></a></svg>`,
  ],
  ['set writing a handler', `<svg ${SVG}><rect><set attributeName="onclick" to="alert(1)"/></rect></svg>`],
  ['script', `<svg ${SVG}><script>alert(1)</script></svg>`],
  ['script in CDATA of another namespace', `<svg ${SVG}><x:script xmlns:x="${'http://www.w3.org/2000/svg'}"/></svg>`],
  ['event handler', `<svg ${SVG} onload="alert(1)"><rect/></svg>`],
  ['event handler in capitals', `<svg ${SVG}><rect ONCLICK="alert(1)"/></svg>`],
  ['foreignObject', `<svg ${SVG}><foreignObject><p xmlns="http://www.w3.org/1999/xhtml">x</p></foreignObject></svg>`],
  [
    'outside picture',
    `<svg ${SVG} xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="https://evil.example/x.png"/></svg>`,
  ],
  ['SVG inside a data address', `<svg ${SVG}><image href="data:image/svg+xml;base64,PHN2Zy8+"/></svg>`],
  ['javascript: link', `<svg ${SVG}><use href="javascript:alert(1)"/></svg>`],
  ['outside use', `<svg ${SVG}><use href="https://evil.example/s.svg#a"/></svg>`],
  ['style sheet import', `<svg ${SVG}><style>@import url(https://evil.example/a.css);</style><rect/></svg>`],
  ['outside url() in style', `<svg ${SVG}><rect style="fill:url( 'https://evil.example/x' )"/></svg>`],
  ['outside url() in a paint', `<svg ${SVG}><rect fill="url(https://evil.example/x#p)"/></svg>`],
  ['entity declarations', `<svg ${SVG}><!DOCTYPE svg [<!ENTITY e "x">]><text>&e;</text></svg>`],
  ['style sheet instruction', `<?xml-stylesheet href="https://evil.example/a.css"?><svg ${SVG}/>`],
  ['no SVG namespace', '<svg><rect/></svg>'],
  ['not well-formed', `<svg ${SVG}><rect></svg>`],
];

describe('an SVG logo', () => {
  it.each(UNSAFE)('is refused with %s, in the uploader’s language; nothing kept', async (_what, svg) => {
    expect(svgIsSafe(svg)).toBe(false);
    const dir = join(t.config.uploadsDir, 'logos');
    const before = readdirSync(dir).length;
    for (const lang of LANGUAGES) {
      const res = await uploadLogo(svg, lang);
      expect(res.code).toBe(400);
      expect(res.msg).toBe(translate(lang, 'company.logoUnsafe'));
    }
    expect(readdirSync(dir)).toHaveLength(before);
  });

  it('that only draws is taken (gradients, inner references, style, embedded PNG, text) and served inert', async () => {
    const svg =
      `<?xml version="1.0" encoding="UTF-8"?>\n<!-- Acme --><svg ${SVG} xmlns:xlink="http://www.w3.org/1999/xlink" ` +
      'viewBox="0 0 40 10" width="40" height="10"><title>Acme</title><defs><linearGradient id="g">' +
      '<stop offset="0" stop-color="#0a0"/><stop offset="1" stop-color="#070"/></linearGradient>' +
      '<path id="p" d="M0 0h4v4z"/></defs><style>.t{font:bold 6px sans-serif;fill:url(#g)}</style>' +
      '<rect width="40" height="10" rx="2" fill="url(#g)"/><use xlink:href="#p" x="2"/>' +
      '<image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>' +
      '<text class="t" x="8" y="7" style="letter-spacing:1px">Acme</text></svg>';
    const res = await uploadLogo(svg);
    expect(res.code, res.msg).toBe(200);
    const served = await t.app.inject({ method: 'GET', url: res.data!.logo });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    const csp = String(served.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp.split(';').map((d) => d.trim())).toContain('sandbox');
    expect(csp).not.toContain('script-src');
  });
});
