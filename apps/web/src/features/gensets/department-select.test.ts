import { describe, expect, it } from 'vitest';
import { departmentChoices } from './department-select.tsx';

describe('department choices', () => {
  it('keep the tree order, indent each department by its depth and are searched by the name alone', () => {
    expect(
      departmentChoices([
        { id: 1, name: 'Headquarters', parentId: null, depth: 0 },
        { id: 2, name: 'North region', parentId: 1, depth: 1 },
        { id: 3, name: 'Service team', parentId: 2, depth: 2 },
      ]),
    ).toEqual([
      { value: 1, title: 'Headquarters', label: 'Headquarters' },
      { value: 2, title: 'North region', label: '\u2003North region' },
      { value: 3, title: 'Service team', label: '\u2003\u2003Service team' },
    ]);
  });
});
