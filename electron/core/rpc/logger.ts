// What the transports need from a logger. Structurally the same as CoreContext's Logger (context.ts), kept
// separate so that the transports (and the in-memory pair used by renderer tests) do not pull the whole
// core's types into a web build.
export interface RpcLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}
