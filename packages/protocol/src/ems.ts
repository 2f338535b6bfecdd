// Energy-storage stations: price templates and tariff periods, and the tactic a station's module runs.
export * from './ems/tariff.ts';
export * from './ems/tactic.ts';
export * from './ems/coordinates.ts';
