// A tactic's register coordinates from a station's protocol documents: every data item that carries an EMS role
// becomes that role's coordinate at the controller (port, unit address) the document describes. The server
// builds tactics with it, and tests build them from the same documents the simulated devices are laid out by.
import type { DataItem } from '../device-protocol/schema.ts';
import type { EmsRole } from './roles.ts';
import type { EmsRoleCoordinate } from './tactic.ts';

/** What a coordinate needs of a data item (a parsed document's item, or an author's with defaults left out). */
export type EmsRoleItem = Pick<DataItem, 'fc' | 'address' | 'type' | 'emsRole'> &
  Partial<Pick<DataItem, 'wordOrder' | 'scale' | 'offset'>>;

/**
 * The coordinates of the roles a device's items carry, at `port` / `address`. Only registers can be a role's
 * coordinate (fc 3 or 4, a numeric type): a role given to a coil, an input or a bit is left out, so a tactic
 * that needs it is refused as lacking it. The first item carrying a role wins. Merge several devices' results
 * with object spread to get a station's roles.
 */
export function emsRoleCoordinates(
  items: readonly EmsRoleItem[],
  port: string,
  address: number,
): Partial<Record<EmsRole, EmsRoleCoordinate>> {
  const roles: Partial<Record<EmsRole, EmsRoleCoordinate>> = {};
  for (const item of items) {
    const role = item.emsRole;
    if (!role || roles[role]) continue;
    if ((item.fc !== 3 && item.fc !== 4) || item.type === 'bit') continue;
    roles[role] = {
      port,
      address,
      fc: item.fc,
      register: item.address,
      type: item.type,
      ...(item.wordOrder ? { wordOrder: item.wordOrder } : {}),
      scale: item.scale ?? 1,
      offset: item.offset ?? 0,
    };
  }
  return roles;
}
