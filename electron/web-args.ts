// The flags of `npm run web` (and of `npm start`, which falls back to browser mode), parsed strictly so a
// typo gets the usage instead of being ignored.
import { parseArgs } from 'node:util';

export const WEB_USAGE = `Usage: npm run web -- [--data-dir DIR] [--port N]

Serves Mnemo in your browser at http://127.0.0.1:PORT/?token=... (the token keeps other pages out).
  --data-dir DIR  where settings, memory and conversations live (default: the desktop app's folder,
                  or MNEMO_DATA_DIR)
  --port N        the port to listen on (default 0: any free port)`;

export interface WebArgs {
  dataDir: string | undefined;
  port: number;
}

/** Parses the flags; throws an Error whose message is meant for the user. */
export function parseWebArgs(argv: string[]): WebArgs | 'help' {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) return 'help';
  if (positionals.length > 0) throw new Error(`Unexpected argument: ${positionals[0]}`);
  const rawPort = values.port ?? '0';
  const port = /^\d{1,5}$/.test(rawPort) ? Number(rawPort) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`--port must be a number from 0 to 65535 (got "${rawPort}").`);
  }
  const dataDir = values['data-dir'];
  if (dataDir !== undefined && dataDir.trim() === '') throw new Error('--data-dir needs a folder.');
  return { dataDir, port };
}
