// Fails when a component shows words that do not come from the locale files: text between JSX tags, text
// attributes (title, placeholder, aria-label, …) and text properties of Ant Design items (label, title, …).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..');
const TEXT_PROPS = new Set([
  'title',
  'subTitle',
  'label',
  'placeholder',
  'alt',
  'aria-label',
  'okText',
  'cancelText',
  'content',
  'description',
  'extra',
  'tooltip',
  'message',
  'help',
]);
const LETTERS = /\p{L}/u;

function tsxFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsxFiles(path);
    return name.endsWith('.tsx') && !name.endsWith('.test.tsx') ? [path] : [];
  });
}

function isText(node: ts.Node): node is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral {
  return (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && LETTERS.test(node.text);
}

export function rawStrings(source: string, fileName = 'file.tsx'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart());
    found.push(`${fileName}:${line + 1}: ${text.trim()}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && LETTERS.test(node.text)) report(node, node.text);
    if (ts.isJsxExpression(node) && node.expression && isText(node.expression)) {
      if (!ts.isJsxAttribute(node.parent) || TEXT_PROPS.has(node.parent.name.getText()))
        report(node, node.expression.text);
    }
    if (
      ts.isJsxAttribute(node) &&
      node.initializer &&
      isText(node.initializer) &&
      TEXT_PROPS.has(node.name.getText())
    ) {
      report(node, node.initializer.text);
    }
    if (
      ts.isPropertyAssignment(node) &&
      isText(node.initializer) &&
      TEXT_PROPS.has(node.name.getText().replace(/'/g, ''))
    ) {
      report(node, node.initializer.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('visible text', () => {
  it('is detected by the scanner', () => {
    expect(rawStrings('const a = <p>Hello</p>;')).toHaveLength(1);
    expect(rawStrings('const a = <Input placeholder="Name" />;')).toHaveLength(1);
    expect(rawStrings("const a = <b>{'Hi'}</b>;")).toHaveLength(1);
    expect(rawStrings("const items = [{ key: 'a', label: 'Close' }];")).toHaveLength(1);
    expect(rawStrings('const a = <p data-testid="x" className="y">{t(\'k\')}</p>;')).toHaveLength(0);
    expect(rawStrings('const a = <p>{count} · 42</p>;')).toHaveLength(0);
  });

  // (parses every component: seconds of work on a busy machine, not a hang)
  it('comes from the locale files in every component', { timeout: 60_000 }, () => {
    const found = tsxFiles(SRC).flatMap((path) => rawStrings(readFileSync(path, 'utf8'), relative(SRC, path)));
    expect(found).toEqual([]);
  });
});
