import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { MarkdownView, safeUrl } from './markdown-view.tsx';

function html(markdown: string): string {
  return renderToStaticMarkup(
    <MemoryRouter>
      <MarkdownView markdown={markdown} />
    </MemoryRouter>,
  );
}

describe('manual Markdown', () => {
  it('renders headings, lists and tables of plain Markdown', () => {
    const out = html('# Title\n\n- one\n- two\n\n**bold**');
    expect(out).toContain('<h1>Title</h1>');
    expect(out).toContain('<li>one</li>');
    expect(out).toContain('<strong>bold</strong>');
  });

  it('renders pipe tables with inline formatting in cells', () => {
    const out = html('Intro\n\n| Rule | Value |\n|---|:-:|\n| Length | **6** digits |\n| Use | `once` |\n\nAfter');
    expect(out).toContain('<table>');
    expect(out).toContain('<th>Rule</th>');
    expect(out).toContain('<td style="text-align:center"><strong>6</strong> digits</td>');
    expect(out).toContain('<code>once</code>');
    expect(out).toContain('<p>After</p>');
  });

  it('leaves paragraphs with a stray pipe alone', () => {
    expect(html('a | b\nc')).toContain('<p>a | b');
  });

  it('drops raw HTML instead of rendering it', () => {
    const out = html('Hello <script>alert(1)</script><img src=x onerror=alert(1)> world');
    expect(out).not.toContain('<script');
    expect(out).not.toContain('onerror');
  });

  it('keeps only safe link targets', () => {
    expect(safeUrl('javascript:alert(1)')).toBe('');
    expect(safeUrl('data:text/html,x')).toBe('');
    expect(safeUrl('https://example.com')).toBe('https://example.com');
    expect(safeUrl('mailto:help@example.com')).toBe('mailto:help@example.com');
    expect(safeUrl('/help/info?slug=a')).toBe('/help/info?slug=a');
    const out = html('[x](javascript:alert(1)) [y](https://example.com)');
    expect(out).not.toContain('javascript:');
    expect(out).toContain('href="https://example.com" target="_blank" rel="noopener noreferrer"');
  });
});
