import { describe, expect, it } from 'vitest';
import { fileNameOf } from './download.ts';

describe('file name of a download', () => {
  it('prefers the encoded name, falls back to the plain one, and is undefined without a header', () => {
    expect(fileNameOf(`attachment; filename="a.xlsx"; filename*=UTF-8''%E6%9C%BA%E7%BB%84.xlsx`)).toBe('机组.xlsx');
    expect(fileNameOf('attachment; filename="gensets-2026-11-21.csv"')).toBe('gensets-2026-11-21.csv');
    expect(fileNameOf('attachment; filename=plain.xlsx')).toBe('plain.xlsx');
    expect(fileNameOf(null)).toBeUndefined();
  });
});
