// Ingestion lives in ./ingest/, one file per stage (index.ts says which); this path still names it.
export * from './ingest/index.ts';
