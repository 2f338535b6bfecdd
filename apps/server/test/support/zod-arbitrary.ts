// fast-check arbitraries from the zod 4 schemas of the routes, for the fuzz tests. The published zod → fast-check
// connector (zod-fast-check) reads zod 3's `_def` and does not know zod 4's `_zod.def`, so this walks the
// definitions itself: objects, strings with lengths and patterns, numbers and integers with bounds, enums,
// literals, unions, arrays, tuples, records, optional, nullable and defaulted values, pipes (their input side),
// lazy schemas; anything else gets `fc.anything()`. Refinements cannot be generated from, so a share of the
// "valid" values is refused by them: the fuzz tests want both anyway.
import fc from 'fast-check';

/** Values to mix in for a property of this name (known set tokens, ids …), beside the generated ones. */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

interface Def {
  type: string;
  [key: string]: any;
}

interface Walk {
  hints: Hints;
  /** Depth of lazy schemas followed so far (recursive menus stop after a few levels). */
  depth: number;
}

function defOf(schema: unknown): Def {
  return (schema as { _zod: { def: Def } })._zod.def;
}

function checksOf(def: Def): Def[] {
  return ((def.checks ?? []) as { _zod: { def: Def } }[]).map((c) => c._zod.def);
}

interface Bounds {
  min?: number;
  max?: number;
  minExclusive?: boolean;
  maxExclusive?: boolean;
  int: boolean;
  minLength?: number;
  maxLength?: number;
  patterns: RegExp[];
}

function boundsOf(def: Def): Bounds {
  const b: Bounds = { int: ['safeint', 'int32', 'uint32'].includes(def.format), patterns: [] };
  for (const c of checksOf(def)) {
    switch (c.check) {
      case 'min_length':
        b.minLength = Math.max(b.minLength ?? 0, c.minimum);
        break;
      case 'max_length':
        b.maxLength = Math.min(b.maxLength ?? Infinity, c.maximum);
        break;
      case 'length_equals':
        b.minLength = b.maxLength = c.length;
        break;
      case 'string_format':
        if (c.pattern instanceof RegExp) b.patterns.push(c.pattern);
        break;
      case 'greater_than':
        b.min = c.value;
        b.minExclusive = !c.inclusive;
        break;
      case 'less_than':
        b.max = c.value;
        b.maxExclusive = !c.inclusive;
        break;
      case 'number_format':
        if (['safeint', 'int32', 'uint32'].includes(c.format)) b.int = true;
        break;
    }
  }
  return b;
}

/**
 * Text a schema lets through but a database or a template may choke on: NUL and other control characters,
 * unpaired surrogates, SQL and HTML fragments, right-to-left marks, emoji, case folding traps.
 */
export const EDGE_TEXT = [
  '\u0000',
  'a\u0000b',
  '\u0001\u001f\u007f',
  '\ud800',
  'a\udfffb',
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '%_\\',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '\u202eevil',
  '\ufeffbom',
  '🦄🦄',
  'İı',
  '  padded  ',
  '\n\r\t',
  '__proto__',
  'constructor',
  'NaN',
  '1e308',
];

/** Integers a schema lets through that still break things: 32-bit overflow, the edges of safe integers. */
const EDGE_INTEGERS = [0, -1, 1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 32, 2 ** 53 - 1, -(2 ** 53 - 1)];
const EDGE_NUMBERS = [...EDGE_INTEGERS, 0.5, -0.5, 1e-7, 1e308, -1e308, 5e-324];

function stringArbitrary(def: Def): fc.Arbitrary<string> {
  const b = boundsOf(def);
  const minLength = b.minLength ?? 0;
  const maxLength = Math.min(b.maxLength ?? minLength + 40, minLength + 40);
  const fits = (s: string) =>
    s.length >= minLength && s.length <= (b.maxLength ?? Infinity) && b.patterns.every((p) => p.test(s));
  const edges = [...EDGE_TEXT, 'x'.repeat(b.maxLength ?? 5000), 'x'.repeat((b.maxLength ?? 5000) + 1)].filter(fits);
  const edge = edges.length ? [{ weight: 2, arbitrary: fc.constantFrom(...edges) }] : [];
  if (b.patterns.length) {
    // The first pattern generates; lengths and further patterns filter (the console's patterns all admit short
    // values, so the filter passes often). Without a short fitting value the plain strings below still come.
    const matching = fc.stringMatching(b.patterns[0]!, { size: 'small' }).filter(fits);
    return fc.oneof(
      { weight: 6, arbitrary: matching },
      { weight: 1, arbitrary: fc.string({ minLength, maxLength }) },
      ...edge,
    );
  }
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength, maxLength }) },
    { weight: 1, arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }) },
    { weight: 1, arbitrary: fc.string({ minLength, maxLength, unit: 'binary' }) },
    ...edge,
  );
}

function numberArbitrary(def: Def): fc.Arbitrary<number> {
  const b = boundsOf(def);
  if (b.int) {
    const min = Math.ceil(b.min === undefined ? Number.MIN_SAFE_INTEGER : b.min + (b.minExclusive ? 1 : 0));
    const max = Math.floor(b.max === undefined ? Number.MAX_SAFE_INTEGER : b.max - (b.maxExclusive ? 1 : 0));
    // fc.integer takes 32-bit bounds: small values near the lower bound, any 32-bit value within bounds, and
    // the edges (the bounds themselves, 32-bit overflow, the largest safe integers) when the schema allows them.
    const lo = Math.max(min, -(2 ** 31));
    const hi = Math.min(max, 2 ** 31 - 1);
    const edges = [...new Set([min, max, ...EDGE_INTEGERS])].filter((v) => v >= min && v <= max);
    const parts = [{ weight: 2, arbitrary: fc.constantFrom(...edges) }];
    if (lo <= hi) {
      parts.push(
        { weight: 5, arbitrary: fc.integer({ min: lo, max: Math.min(hi, Math.max(lo, 0) + 100) }) },
        { weight: 2, arbitrary: fc.integer({ min: lo, max: hi }) },
      );
    }
    return fc.oneof(...parts);
  }
  const min = b.min ?? -Number.MAX_VALUE;
  const max = b.max ?? Number.MAX_VALUE;
  const edges = [...new Set([min, max, ...EDGE_NUMBERS])].filter((v) => v >= min && v <= max);
  const near = Math.max(min, -1e6) <= Math.min(max, 1e6) ? [Math.max(min, -1e6), Math.min(max, 1e6)] : [min, max];
  return fc.oneof(
    { weight: 4, arbitrary: fc.double({ min: near[0], max: near[1], noNaN: true }) },
    { weight: 1, arbitrary: fc.double({ min, max, noNaN: true, noDefaultInfinity: true }) },
    { weight: 2, arbitrary: fc.constantFrom(...edges) },
  );
}

function walk(schema: unknown, w: Walk): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  switch (def.type) {
    case 'string': {
      const s = stringArbitrary(def);
      return s;
    }
    case 'number': {
      const n = numberArbitrary(def);
      // A coerced number comes from a query string or a path: it is sent as text.
      return def.coerce ? n.map(String) : n;
    }
    case 'bigint':
      return fc.bigInt();
    case 'boolean':
      return def.coerce ? fc.boolean().map(String) : fc.boolean();
    case 'date':
      return fc.date().map((d) => d.toISOString());
    case 'null':
      return fc.constant(null);
    case 'undefined':
    case 'void':
      return fc.constant(undefined);
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
    case 'object':
      return objectArbitrary(def, w);
    case 'array': {
      const b = boundsOf(def);
      const minLength = b.minLength ?? 0;
      return fc.array(walk(def.element, w), {
        minLength,
        maxLength: Math.min(b.maxLength ?? minLength + 4, minLength + 4),
      });
    }
    case 'tuple':
      return fc.tuple(...(def.items as unknown[]).map((item) => walk(item, w)));
    case 'record':
      return fc.dictionary(
        walk(def.keyType, w).map((k) => String(k)),
        walk(def.valueType, w),
        { maxKeys: 4 },
      );
    case 'union':
      return fc.oneof(...(def.options as unknown[]).map((o) => walk(o, w)));
    case 'optional':
      return fc.option(walk(def.innerType, w), { nil: undefined, freq: 4 });
    case 'nullable':
      return fc.option(walk(def.innerType, w), { nil: null, freq: 4 });
    case 'default':
    case 'prefault':
      return fc.option(walk(def.innerType, w), { nil: undefined, freq: 4 });
    case 'nonoptional':
    case 'readonly':
    case 'catch':
    case 'success':
      return walk(def.innerType, w);
    case 'pipe':
      // A transform's output is what the route works with; the request carries the pipe's input.
      return defOf(def.in).type === 'transform' ? walk(def.out, w) : walk(def.in, w);
    case 'lazy':
      if (w.depth >= 3) return fc.constant([]);
      return walk(def.getter(), { ...w, depth: w.depth + 1 });
    default:
      return fc.anything();
  }
}

function objectArbitrary(def: Def, w: Walk): fc.Arbitrary<Record<string, unknown>> {
  const shape = def.shape as Record<string, unknown>;
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  const requiredKeys: string[] = [];
  for (const [key, field] of Object.entries(shape)) {
    const generated = walk(field, w);
    const hint = w.hints[key];
    model[key] = hint ? fc.oneof({ weight: 3, arbitrary: hint }, { weight: 2, arbitrary: generated }) : generated;
    const optin = (field as { _zod: { optin?: string } })._zod.optin;
    if (optin !== 'optional' && optin !== 'defaulted') requiredKeys.push(key);
  }
  return fc.record(model, { requiredKeys }).map((value) => {
    // An optional field drawn as `undefined` is left out, as JSON would.
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v;
    return out;
  });
}

/** Values the schema should accept (modulo refinements), with hinted values mixed in by property name. */
export function arbitraryOf(schema: unknown, hints: Hints = {}): fc.Arbitrary<unknown> {
  return walk(schema, { hints, depth: 0 });
}

/** The property names of an object schema (through optional, default and pipe wrappers), for mutations. */
export function keysOf(schema: unknown): string[] {
  let def = defOf(schema);
  for (let i = 0; i < 10 && def.type !== 'object'; i++) {
    if (def.innerType) def = defOf(def.innerType);
    else if (def.type === 'pipe') def = defOf(def.in);
    else return [];
  }
  return def.type === 'object' ? Object.keys(def.shape as object) : [];
}
