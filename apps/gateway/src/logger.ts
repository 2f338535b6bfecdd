// Minimal logging seam: the command line logs to the console, tests and the demo pass their own or a silent one.
export interface GatewayLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function consoleLogger(prefix: string): GatewayLogger {
  const line = (message: string) => `${new Date().toISOString()} [${prefix}] ${message}`;
  return {
    info: (message) => console.log(line(message)),
    warn: (message) => console.warn(line(message)),
    error: (message) => console.error(line(message)),
  };
}

export const silentLogger: GatewayLogger = { info: () => {}, warn: () => {}, error: () => {} };

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (error && typeof error === 'object' && 'message' in error) return String(error.message);
  return String(error);
}
