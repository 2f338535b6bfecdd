// The tactic a station's module is sent: its strategy and parameters, the template version in force, the
// station's time zone and, for each role the strategies read or write, the register it lives in, taken from
// the protocol documents of the sets bound to the station in the matching role. Whatever a tactic lacks is
// said by name, before anything is sent.
import {
  EMS_REQUIRED_ROLES,
  emsRoleCoordinates,
  emsTactic,
  SITE_REQUIRED_DEVICE_ROLES,
  type EmsRole,
  type EmsRoleCoordinate,
  type EmsStrategy,
  type EmsStrategyParams,
  type EmsTactic,
  type PriceTemplateBody,
  type ProtocolDocument,
  type SiteDeviceRole,
} from '@genset/protocol';

/** Which of a station's devices carries each role. */
export const ROLE_DEVICE: Record<EmsRole, SiteDeviceRole> = {
  gridPowerKw: 'meter',
  pcsPowerKw: 'pcs',
  pcsSetpointKw: 'pcs',
  pcsRatingKw: 'pcs',
  pcsFault: 'pcs',
  soc: 'bms',
  bmsChargeLimitKw: 'bms',
  bmsDischargeLimitKw: 'bms',
  bmsFault: 'bms',
  pvPowerKw: 'pv',
  pvLimitPct: 'pv',
};

export interface StationDevice {
  role: SiteDeviceRole;
  port: string;
  address: number;
  doc: ProtocolDocument | undefined;
}

/** Why a tactic cannot be built: a device role no set plays, or a role no bound set's document carries. */
export type TacticProblem =
  | { kind: 'device'; role: SiteDeviceRole }
  | { kind: 'role'; role: EmsRole; device: SiteDeviceRole }
  | { kind: 'param'; field: 'transformerKw' | 'demandLimit' };

/** The coordinates of every role the station's devices carry, each from a device of the matching kind. */
export function stationCoordinates(devices: readonly StationDevice[]): Partial<Record<EmsRole, EmsRoleCoordinate>> {
  const roles: Partial<Record<EmsRole, EmsRoleCoordinate>> = {};
  for (const d of devices) {
    if (!d.doc) continue;
    const found = emsRoleCoordinates(d.doc.items, d.port, d.address);
    for (const [role, coordinate] of Object.entries(found) as [EmsRole, EmsRoleCoordinate][]) {
      if (ROLE_DEVICE[role] === d.role && !roles[role]) roles[role] = coordinate;
    }
  }
  return roles;
}

/** The first thing a tactic of this strategy lacks at the station, or null. */
export function tacticProblem(
  devices: readonly StationDevice[],
  strategy: EmsStrategy,
  params: EmsStrategyParams,
  template: PriceTemplateBody,
): TacticProblem | null {
  for (const role of SITE_REQUIRED_DEVICE_ROLES)
    if (!devices.some((d) => d.role === role)) return { kind: 'device', role };
  const roles = stationCoordinates(devices);
  for (const role of EMS_REQUIRED_ROLES) if (!roles[role]) return { kind: 'role', role, device: ROLE_DEVICE[role] };
  if (strategy === 'capacityExpansion' && params.transformerKw === undefined)
    return { kind: 'param', field: 'transformerKw' };
  if (strategy === 'peakShaving' && !template.demandControl.enabled) return { kind: 'param', field: 'demandLimit' };
  return null;
}

export function buildTactic(input: {
  version: number;
  strategy: EmsStrategy;
  params: EmsStrategyParams;
  template: PriceTemplateBody;
  timeZone: string;
  devices: readonly StationDevice[];
}): EmsTactic {
  return emsTactic.parse({
    version: input.version,
    strategy: input.strategy,
    params: input.params,
    template: input.template,
    timeZone: input.timeZone,
    roles: stationCoordinates(input.devices),
  });
}
