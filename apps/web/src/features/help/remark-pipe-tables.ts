// Pipe tables (| a | b |) of GitHub-flavoured Markdown, which plain CommonMark reads as a paragraph: this
// remark step turns such paragraphs into table nodes, keeping the inline formatting of each cell.
import type { AlignType, Paragraph, PhrasingContent, Root, RootContent, Table, TableCell, TableRow } from 'mdast';

type Line = PhrasingContent[];

function splitLines(children: PhrasingContent[]): Line[] {
  const lines: Line[] = [[]];
  for (const child of children) {
    if (child.type === 'break') {
      lines.push([]);
      continue;
    }
    if (child.type !== 'text') {
      lines.at(-1)!.push(child);
      continue;
    }
    child.value.split('\n').forEach((part, index) => {
      if (index > 0) lines.push([]);
      if (part) lines.at(-1)!.push({ type: 'text', value: part });
    });
  }
  return lines;
}

function splitCells(line: Line): Line[] {
  const cells: Line[] = [[]];
  for (const node of line) {
    if (node.type !== 'text') {
      cells.at(-1)!.push(node);
      continue;
    }
    node.value.split(/(?<!\\)\|/).forEach((part, index) => {
      if (index > 0) cells.push([]);
      const value = part.replace(/\\\|/g, '|');
      if (value) cells.at(-1)!.push({ type: 'text', value });
    });
  }
  // the leading and trailing pipes leave an empty cell at each end
  if (cells.length > 1 && isBlank(cells[0]!)) cells.shift();
  if (cells.length > 1 && isBlank(cells.at(-1)!)) cells.pop();
  return cells.map(trim);
}

function isBlank(cell: Line): boolean {
  return cell.every((n) => n.type === 'text' && !n.value.trim());
}

function trim(cell: Line): Line {
  const out = cell.filter((n) => !(n.type === 'text' && !n.value.trim()));
  const first = out[0];
  const last = out.at(-1);
  if (first?.type === 'text') out[0] = { ...first, value: first.value.trimStart() };
  if (last?.type === 'text')
    out[out.length - 1] = { ...last, value: (out.at(-1) as { value: string }).value.trimEnd() };
  return out;
}

function textOf(line: Line): string {
  return line.map((n) => (n.type === 'text' ? n.value : '\u0000')).join('');
}

const DELIMITER = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/;

function alignOf(spec: string): AlignType {
  const s = spec.trim();
  if (s.startsWith(':') && s.endsWith(':')) return 'center';
  if (s.endsWith(':')) return 'right';
  if (s.startsWith(':')) return 'left';
  return null;
}

export function paragraphToTable(paragraph: Paragraph): Table | null {
  const lines = splitLines(paragraph.children).filter((l) => l.length > 0);
  if (lines.length < 2) return null;
  const texts = lines.map(textOf);
  if (!texts[0]!.includes('|') || !DELIMITER.test(texts[1]!)) return null;
  const align = texts[1]!
    .replace(/^\s*\||\|\s*$/g, '')
    .split('|')
    .map(alignOf);
  const row = (line: Line): TableRow => ({
    type: 'tableRow',
    children: splitCells(line)
      .slice(0, align.length)
      .map((children): TableCell => ({ type: 'tableCell', children })),
  });
  return { type: 'table', align, children: [row(lines[0]!), ...lines.slice(2).map(row)] };
}

function transform(nodes: RootContent[]): void {
  nodes.forEach((node, index) => {
    if (node.type === 'paragraph') {
      const table = paragraphToTable(node);
      if (table) nodes[index] = table;
    } else if ('children' in node && Array.isArray(node.children)) {
      transform(node.children as RootContent[]);
    }
  });
}

export function remarkPipeTables() {
  return (tree: Root) => transform(tree.children);
}
