// The terminal's command line: its flags, its usage text and the parsing of both into what to run. Kept apart
// from the backend, so that `--help` and a usage error load nothing else (cli-run.ts).
import { parseArgs } from 'node:util';
import type { Settings } from '../shared/channels/settings.js';
import { SPACE_USAGE, spaceCommandOf, spaceOptions, type SpaceCommand } from './cli-spaces-args.js';
import { SYNC_USAGE, syncCommandOf, syncOptions, type SyncCommand } from './cli-sync-args.js';
import { FORGET_USAGE, forgetCommandOf, forgetOptions, type ForgetCommand } from './cli-forget-args.js';

// Named the way the user ran it: through npm (`npm run chat --`) or as the installed `mnemo` command.
const COMMAND = process.env.npm_lifecycle_event === 'chat' ? 'npm run chat --' : 'mnemo';

export const USAGE = `Usage: ${COMMAND} [options] "message"

  --data-dir DIR            where memory and conversations live (default: MNEMO_DATA_DIR, else the app's folder)
  --model M                 the model (default: the app's setting)
  --context native|local|off  context management strategy
  --compact-at TOKENS       compact the context past this many tokens
  --keep-tool-results N     tool results kept when old ones are cleared
  --max-turns N             requests per run at most
  --no-memory               a temporary conversation: no memory loaded, no memory tools
  --continue                continue the most recent conversation (of the space) instead of starting a new one
${SPACE_USAGE}
${SYNC_USAGE}
${FORGET_USAGE}
  -h, --help                this text

Needs ANTHROPIC_API_KEY (or a key saved in the app). ANTHROPIC_BASE_URL points it at another endpoint.`;

export class UsageError extends Error {}

export interface CliArgs {
  dataDir: string | undefined;
  message: string;
  noMemory: boolean;
  continue: boolean;
  overrides: Partial<Settings>;
  space: string | undefined;
}

function int(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} needs a whole number from ${min} to ${max}.`);
  return n;
}

export type Command = (SpaceCommand | SyncCommand | ForgetCommand) & { dataDir: string | undefined };

export function parseCliArgs(argv: string[]): CliArgs | Command | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'data-dir': { type: 'string' },
        model: { type: 'string' },
        context: { type: 'string' },
        'compact-at': { type: 'string' },
        'keep-tool-results': { type: 'string' },
        'max-turns': { type: 'string' },
        'no-memory': { type: 'boolean' },
        continue: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        ...spaceOptions,
        ...syncOptions,
        ...forgetOptions,
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const v = parsed.values;
  if (v.help) return 'help';
  const syncCommand = syncCommandOf(v, parsed.positionals, (m) => new UsageError(m));
  if (syncCommand) {
    if (v.spaces || v['rename-space'] !== undefined || v['delete-space'] !== undefined)
      throw new UsageError(
        'The sync commands cannot be used with --spaces, --rename-space or --delete-space.',
      );
    return { ...syncCommand, dataDir: v['data-dir'] };
  }
  const forget = forgetCommandOf(v, parsed.positionals, (m) => new UsageError(m));
  if (forget) {
    if (v.spaces || v['rename-space'] !== undefined || v['delete-space'] !== undefined)
      throw new UsageError('--forget cannot be used with --spaces, --rename-space or --delete-space.');
    return { ...forget, dataDir: v['data-dir'] };
  }
  const command = spaceCommandOf(v, parsed.positionals, (m) => new UsageError(m));
  if (command) return { ...command, dataDir: v['data-dir'] };
  const message = parsed.positionals.join(' ').trim();
  if (!message) throw new UsageError('Give the message to send, e.g. npm run chat -- "Hello".');
  const overrides: Partial<Settings> = {};
  if (v.model !== undefined) {
    if (!v.model.trim()) throw new UsageError('--model needs a model name.');
    overrides.model = v.model.trim();
  }
  if (v.context !== undefined) {
    if (!['native', 'local', 'off'].includes(v.context))
      throw new UsageError('--context is native, local or off.');
    overrides.contextStrategy = v.context as Settings['contextStrategy'];
  }
  const compactAt = int('compact-at', v['compact-at'], 1_000, 2_000_000);
  if (compactAt !== undefined) overrides.compactTrigger = compactAt;
  const keep = int('keep-tool-results', v['keep-tool-results'], 0, 100);
  if (keep !== undefined) overrides.clearKeep = keep;
  const maxTurns = int('max-turns', v['max-turns'], 1, 200);
  if (maxTurns !== undefined) overrides.maxTurns = maxTurns;
  return {
    dataDir: v['data-dir'],
    message,
    noMemory: v['no-memory'] === true,
    continue: v.continue === true,
    overrides,
    space: v.space,
  };
}
