// The contract shared by server, console, gateway and simulator.
export * from './api/index.ts';
export * from './device-protocol.ts';
export * from './mqtt.ts';
export * from './controller-firmware.ts';
export * from './ems.ts';
