import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/request.ts';
import { sortRefusal } from './template-editor.tsx';

describe('refusals of a price template', () => {
  it('go on the field, beneath the group, or above the editor', () => {
    const error = new ApiError(400, 'Time periods: gap', {
      fields: { ranges: 'Time periods: gap', dischargeCutoffSoc: 'Discharge cut-off: inverted', other: 'Other' },
    });
    const { items, refusals } = sortRefusal(error);
    expect(items).toEqual([['dischargeCutoffSoc', 'Discharge cut-off: inverted']]);
    expect(refusals.groups).toEqual({ ranges: 'Time periods: gap' });
    expect(refusals.general).toBe('Other');
  });

  it('without fields are said above the editor', () => {
    const { items, refusals } = sortRefusal(new ApiError(409, 'The name is taken', null));
    expect(items).toEqual([]);
    expect(refusals.general).toBe('The name is taken');
  });
});
