#!/usr/bin/env node
// `npm run chat -- [--data-dir DIR] [--model M] [--context native|local|off] [--compact-at TOKENS]
// [--keep-tool-results N] [--max-turns N] [--no-memory] [--continue] [--space NAME] "message"`, and the
// space commands of cli-spaces.ts (--spaces, --rename-space, --delete-space) and the sync commands of
// cli-sync.ts (--sync-remote, --sync): the headless face. It runs
// the same backend as the app (createCore) and prints the loop as it happens, then `Final answer:` and the
// text. Exit codes: 0 done, 1 the run failed, 2 bad usage, 3 no API key, 130 interrupted.
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import type { RunEvent } from '../shared/channels/chat.js';
import type { Settings } from '../shared/channels/settings.js';
import { ContractError } from '../shared/errors.js';
import { RunPrinter } from './cli-printer.js';
import { getAgent } from './core/agent/index.js';
import { createCore } from './core/create-core.js';
import { resolveDataDir } from './core/data-dir.js';
import type { HostServices } from './core/host.js';
import { visible } from './terminal-text.js';
import {
  chatSpace,
  runSpaceCommand,
  SPACE_USAGE,
  spaceCommandOf,
  spaceOptions,
  type SpaceCommand,
} from './cli-spaces.js';
import {
  chatSync,
  runSyncCommand,
  SYNC_USAGE,
  syncCommandOf,
  syncOptions,
  type SyncCommand,
} from './cli-sync.js';

// Named the way the user ran it: through npm (`npm run chat --`) or as the installed `mnemo` command.
const COMMAND = process.env.npm_lifecycle_event === 'chat' ? 'npm run chat --' : 'mnemo';

const USAGE = `Usage: ${COMMAND} [options] "message"

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
  -h, --help                this text

Needs ANTHROPIC_API_KEY (or a key saved in the app). ANTHROPIC_BASE_URL points it at another endpoint.`;

class UsageError extends Error {}

interface CliArgs {
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

type Command = (SpaceCommand | SyncCommand) & { dataDir: string | undefined };

function parse(argv: string[]): CliArgs | Command | 'help' {
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

const cliHost: HostServices = {
  kind: 'browser',
  saveFile: async () => ({ saved: false }),
  pickImport: async () => null,
  openExternal: async () => false,
  openFolder: async () => false,
};

// Every line printed passes through visible(): answers, memory content, paths and errors may hold terminal
// control sequences (issue 11: OSC 52 can write the clipboard, CSI can hide lines above the prompt).
const out = (line: string): void => void process.stdout.write(`${visible(line)}\n`);
const err = (line: string): void => void process.stderr.write(`${visible(line)}\n`);

async function main(): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(`${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (args === 'help') {
    out(USAGE);
    return 0;
  }
  const core = await createCore({ dataDir: resolveDataDir({ flag: args.dataDir }), host: cliHost });
  if ('kind' in args) {
    try {
      if (args.kind === 'remote' || args.kind === 'sync')
        return await runSyncCommand(core, args, process.env, out, err);
      return await runSpaceCommand(core, args, out, err);
    } finally {
      await core.close();
    }
  }
  try {
    if (!core.ctx.settings.apiKey()) {
      const { problem } = core.ctx.settings.apiKeyStatus();
      err(
        problem ??
          "Mnemo needs an Anthropic API key: set ANTHROPIC_API_KEY (or save a key in the app's Settings).",
      );
      return 3;
    }
    const space = await chatSpace(core, args.space, out, err);
    if (!space) return 2;
    const agent = getAgent(space.ctx);
    agent.configure(args.overrides);
    await agent.store.init();
    // With a remote: what the other devices learned arrives before the memory is loaded, and what this
    // run changed leaves at its end.
    await chatSync(core, space.id, err);
    const conversationId = args.continue ? agent.store.list()[0]?.id : undefined;
    const code = await chat(space, args, conversationId);
    await chatSync(core, space.id, err);
    return code;
  } finally {
    // Closes the agent too: pending conversation appends are flushed before the process exits.
    await core.close();
  }
}

/** What a chat needs of the backend: one space's context, handlers and events. */
type ChatFace = Pick<Awaited<ReturnType<typeof createCore>>, 'ctx' | 'handlers' | 'bus'>;

async function chat(core: ChatFace, args: CliArgs, conversationId: string | undefined): Promise<number> {
  let runId: string | null = null;
  let lastSeq = 0;
  let failed: RunEvent | null = null;
  let resolveDone!: (status: string) => void;
  const done = new Promise<string>((resolve) => (resolveDone = resolve));
  const printer = new RunPrinter(out);

  const handle = (e: RunEvent): void => {
    printer.apply(e);
    if (e.type === 'review.request') void review(core, e);
    else if (e.type === 'run.error') failed = e;
    else if (e.type === 'run.finished') resolveDone(e.status);
  };
  core.bus.subscribe((name, payload) => {
    if (name !== 'chat.event') return;
    const e = payload as RunEvent;
    // Until chat.send answers, the run is fetched from its first event below (by seq, not buffered).
    if (e.runId === runId && e.seq === lastSeq + 1) {
      lastSeq = e.seq;
      handle(e);
    }
  });
  const onSigint = (): void => void (runId && core.ctx.runs.abort(runId));
  process.once('SIGINT', onSigint);
  const res = await core.handlers['chat.send'](
    { text: args.message, memory: !args.noMemory, ...(conversationId ? { conversationId } : {}) },
    { clientId: 'cli' },
  );
  runId = res.runId;
  for (const e of core.ctx.runs.attach({ runId, afterSeq: lastSeq }).events) {
    lastSeq = e.seq;
    handle(e);
  }
  const status = await done;
  process.off('SIGINT', onSigint);
  const answer = printer.answer();
  if (failed) {
    const f = failed as Extract<RunEvent, { type: 'run.error' }>;
    err(`Error (${f.kind}): ${f.message}`);
  }
  if (answer || status === 'done') {
    out('Final answer:');
    out(answer);
  }
  if (status === 'aborted') return 130;
  if (status === 'error') return failed && (failed as { kind: string }).kind === 'auth' ? 3 : 1;
  return 0;
}

async function review(core: ChatFace, e: Extract<RunEvent, { type: 'review.request' }>): Promise<void> {
  const answer = async (decision: 'approve' | 'reject', reason?: string): Promise<void> => {
    await core.handlers['chat.review'](
      { reviewId: e.reviewId, decision, ...(reason ? { reason } : {}) },
      { clientId: 'cli' },
    );
  };
  if (!process.stdin.isTTY) {
    out(
      `[review] ${e.command} ${e.path}: refused (memory writes need approval and there is no terminal to ask on)`,
    );
    await answer(
      'reject',
      'Memory is in "ask me" mode and the CLI has no terminal to ask the user, so the write was refused.',
    );
    return;
  }
  out(`[review] The assistant wants to ${e.command} ${e.path}`);
  if (e.before !== null) out(`--- before\n${e.before}`);
  if (e.after !== null) out(`+++ after\n${e.after}`);
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  const reply = (await rl.question('Allow this memory change? [y/N] ')).trim().toLowerCase();
  rl.close();
  await answer(
    reply === 'y' || reply === 'yes' ? 'approve' : 'reject',
    reply === 'y' || reply === 'yes' ? undefined : 'The user declined.',
  );
}

main()
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    if (error instanceof ContractError) err(`Mnemo: ${error.message}`);
    else err(`Mnemo failed: ${(error as Error)?.message ?? String(error)}`);
    process.exit(error instanceof ContractError && error.code === 'no_api_key' ? 3 : 1);
  });
