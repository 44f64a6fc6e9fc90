// The messages between the smoke test and the stand-in `electron` module running in the child process
// (Node's IPC channel): commands the test sends, and what the stand-in reports.
export type Command =
  | { cmd: 'ready' }
  | { cmd: 'fetch'; url: string }
  | { cmd: 'invoke'; channel: string; payload: unknown }
  | { cmd: 'permission'; permission: string; url: string }
  | { cmd: 'context-menu'; params: Record<string, unknown> }
  | { cmd: 'minimize' }
  | { cmd: 'second-instance' }
  | { cmd: 'state' }
  | { cmd: 'quit' };

export interface Request {
  id: number;
  command: Command;
}

export interface EventReport {
  event: string;
  [key: string]: unknown;
}

export type Report =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string } | EventReport;

export interface FetchResult {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface WindowRecord {
  options: { x?: number; y?: number; width: number; height: number; webPreferences: { preload: string } };
  loadedUrl: string | null;
  calls: string[];
}

export interface StandInState {
  windows: WindowRecord[];
  privilegedSchemes: unknown[];
  protocols: string[];
  applicationMenu: boolean;
  popups: { template: { label?: string; role?: string; type?: string }[] }[];
  clipboard: string[];
  paths: Record<string, string>;
  quits: number;
}
