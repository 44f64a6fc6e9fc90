// What the terminal runs once its command line is parsed (cli-run.ts): a chat (the loop printed as it
// happens, then `Final answer:` and the text), or a space or sync command, on the same backend as the app
// (createCore).
import { createInterface } from 'node:readline/promises';
import type { RunEvent } from '../shared/channels/chat.js';
import { ContractError } from '../shared/errors.js';
import type { CliArgs, Command } from './cli-args.js';
import { RunPrinter } from './cli-printer.js';
import { getAgent } from './core/agent/index.js';
import { createCore } from './core/create-core.js';
import { resolveDataDir } from './core/data-dir.js';
import type { HostServices } from './core/host.js';
import type { OpenSpace } from './core/spaces/index.js';
import { chatSpace, runSpaceCommand } from './cli-spaces.js';
import { chatSync, runSyncCommand } from './cli-sync.js';
import { runForgetCommand } from './cli-forget.js';
import { err, out } from './cli-output.js';

const cliHost: HostServices = {
  kind: 'browser',
  saveFile: async () => ({ saved: false }),
  pickImport: async () => null,
  openExternal: async () => false,
  openFolder: async () => false,
};

/** Runs a parsed command line against the backend: the exit code; a ContractError is said in one line. */
export async function runCommand(args: CliArgs | Command): Promise<number> {
  try {
    return await run(args);
  } catch (error) {
    if (!(error instanceof ContractError)) throw error;
    err(`Mnemo: ${error.message}`);
    return error.code === 'no_api_key' ? 3 : 1;
  }
}

async function run(args: CliArgs | Command): Promise<number> {
  // A run works in one space (or none: the space commands only read and rename the list), so none is
  // opened here: the chat opens its own, and a run in Work never opens, locks or writes Personal.
  const core = await createCore({
    dataDir: resolveDataDir({ flag: args.dataDir }),
    host: cliHost,
    openPersonal: false,
  });
  if ('kind' in args) {
    try {
      if (args.kind === 'remote' || args.kind === 'sync')
        return await runSyncCommand(core, args, process.env, out, err);
      if (args.kind === 'forget') return await runForgetCommand(core, args, out, err);
      return await runSpaceCommand(core, args, out, err);
    } finally {
      await core.close();
    }
  }
  try {
    if (!core.settings.apiKey()) {
      const { problem } = core.settings.apiKeyStatus();
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
    const erased = agent.store.erasedAtStart;
    if (erased > 0)
      err(`Erased ${erased} temporary ${erased === 1 ? 'chat' : 'chats'} an earlier version kept.`);
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
type ChatFace = Pick<OpenSpace, 'ctx' | 'handlers' | 'bus'>;

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
