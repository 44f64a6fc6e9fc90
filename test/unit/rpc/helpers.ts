// Test stand-ins for the backend's edges: a logger that records, and a handler table in which every channel
// answers 'unavailable' unless the test gives it a body (the mechanism under test is the transport, not
// these handlers).
import { invokeNames, type Handlers } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import type { Logger } from '../../../electron/core/context.js';

export interface RecordingLogger extends Logger {
  lines: Array<{ level: 'info' | 'warn' | 'error'; message: string; fields?: Record<string, unknown> }>;
}

export function recordingLogger(): RecordingLogger {
  const lines: RecordingLogger['lines'] = [];
  const at =
    (level: 'info' | 'warn' | 'error') =>
    (message: string, fields?: Record<string, unknown>): void =>
      void lines.push(fields ? { level, message, fields } : { level, message });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

export function handlerTable(bodies: Partial<Handlers>): Handlers {
  const table: Record<string, unknown> = {};
  for (const name of invokeNames) {
    table[name] = () => Promise.reject(new ContractError('unavailable', `${name} is not part of this test.`));
  }
  return { ...(table as Handlers), ...bodies };
}
