import { describe, expect, it } from 'vitest';
import { emsRoleCoordinates } from './coordinates.ts';
import { missingEmsRole } from './tactic.ts';

describe('EMS role coordinates from document items', () => {
  it("places each role's register, type and scaling at the controller's port and address", () => {
    const roles = emsRoleCoordinates(
      [
        { fc: 4, address: 2, type: 's32', wordOrder: 'lo-hi', scale: 0.1, offset: 0, emsRole: 'pcsPowerKw' },
        { fc: 3, address: 100, type: 's16', scale: 1, emsRole: 'pcsSetpointKw' },
        { fc: 4, address: 9, type: 'u16', emsRole: 'pcsFault' },
        { fc: 4, address: 30, type: 'u16', emsRole: 'pcsFault' },
        { fc: 4, address: 40, type: 'u16' },
      ],
      'ess',
      1,
    );
    expect(roles).toEqual({
      pcsPowerKw: {
        port: 'ess',
        address: 1,
        fc: 4,
        register: 2,
        type: 's32',
        wordOrder: 'lo-hi',
        scale: 0.1,
        offset: 0,
      },
      pcsSetpointKw: { port: 'ess', address: 1, fc: 3, register: 100, type: 's16', scale: 1, offset: 0 },
      pcsFault: { port: 'ess', address: 1, fc: 4, register: 9, type: 'u16', scale: 1, offset: 0 },
    });
  });

  it('leaves out roles on coils, inputs and bits, so a tactic needing them lacks them', () => {
    const roles = emsRoleCoordinates(
      [
        { fc: 1, address: 0, type: 'bit', emsRole: 'bmsFault' },
        { fc: 4, address: 5, type: 'bit', emsRole: 'pcsFault' },
      ],
      'ess',
      2,
    );
    expect(roles).toEqual({});
    expect(missingEmsRole(roles)).toBe('gridPowerKw');
  });
});
