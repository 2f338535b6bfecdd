// The MQTT contract between a cloud module and the cloud: topic names and the schema of every payload.
export * from './mqtt/topics.ts';
export * from './mqtt/messages.ts';
export * from './mqtt/fast-data.ts';
