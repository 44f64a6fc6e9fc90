// Diagnostics: JSON lines in DATA_DIR/logs/mnemo.log, rotated at 1 MB, the last 3 kept
// (mnemo.log.1 .. .3), owner-only. Every message and field goes through redact.ts first.
//
// Hand-written rather than a library (pino + a roller, rotating-file-stream): those write asynchronously,
// so the last lines before `process.exit` (e.g. the CLI's exit 3 for a missing key) can be lost, and each
// process keeps its own idea of the file size, while the app and a CLI run may share one data dir.
// Diagnostics are a few lines per run, so a synchronous append with a stat per line is cheap and exact.
import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from './context.js';
import { redactFields, redactText } from './redact.js';

export interface FileLoggerOptions {
  /** The data dir: the log goes to <dataDir>/logs/. */
  dataDir: string;
  fileName?: string;
  maxBytes?: number;
  /** Rotated files kept besides the live one. */
  keep?: number;
  /**
   * Values to mask wherever they appear (e.g. the API key in use); called at each write, so it must only
   * return values held in memory: never read a file or log from it (a failing read that logs would recurse).
   */
  secrets?: () => readonly (string | undefined)[];
  /** Also echo lines here (e.g. stderr when MNEMO_DEBUG is set). */
  echo?: (line: string) => void;
}

export interface FileLogger extends Logger {
  readonly file: string;
  debug(message: string, fields?: Record<string, unknown>): void;
}

export const LOG_MAX_BYTES = 1024 * 1024;
export const LOG_KEEP = 3;

export function createFileLogger(options: FileLoggerOptions): FileLogger {
  const dir = path.join(options.dataDir, 'logs');
  const file = path.join(dir, options.fileName ?? 'mnemo.log');
  const maxBytes = options.maxBytes ?? LOG_MAX_BYTES;
  const keep = options.keep ?? LOG_KEEP;
  let broken = false;
  let masking = false;

  const write = (level: string, message: string, fields?: Record<string, unknown>): void => {
    // A line logged from inside `secrets` itself is dropped: it could only recurse.
    if (broken || masking) return;
    let secrets: string[];
    masking = true;
    try {
      secrets = (options.secrets?.() ?? []).filter((s): s is string => typeof s === 'string');
    } catch {
      secrets = [];
    } finally {
      masking = false;
    }
    const record: Record<string, unknown> = {
      t: new Date().toISOString(),
      level,
      pid: process.pid,
      msg: redactText(message, secrets),
    };
    if (fields) Object.assign(record, redactFields(fields, secrets) as Record<string, unknown>);
    const line = `${JSON.stringify(record)}\n`;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      rotateIfNeeded(file, Buffer.byteLength(line), maxBytes, keep);
      appendFileSync(file, line, { mode: 0o600 });
    } catch {
      // A log that cannot be written (read-only disk, full disk) must never take the app down.
      broken = true;
    }
    options.echo?.(line.trimEnd());
  };

  return {
    file,
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
  };
}

function rotateIfNeeded(file: string, incoming: number, maxBytes: number, keep: number): void {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return;
  }
  if (size === 0 || size + incoming <= maxBytes) return;
  rmSync(`${file}.${keep}`, { force: true });
  for (let i = keep - 1; i >= 1; i--) {
    try {
      renameSync(`${file}.${i}`, `${file}.${i + 1}`);
    } catch {
      // That generation does not exist yet.
    }
  }
  if (keep >= 1) renameSync(file, `${file}.1`);
  else rmSync(file, { force: true });
}

/** A logger that drops everything (tests of code that needs one but does not assert on it). */
export const silentLogger: FileLogger = {
  file: '',
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
};
