// Two processes on one data folder, one conversation and one memory file: the app's backend (app-worker.ts)
// and the CLI (dist/electron/cli.js --continue), run again and again, both against one fake Messages API
// whose rules answer by the request's content (so neither process can take the other's reply). Checked:
// no acknowledged record lost (messages, answers, lines inserted into /memories/shared.md), no turn
// interleaved with the other process's (a busy conversation is refused, "answering in another window"),
// every request valid, nothing hangs, and the conversation still continues at the end.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCore } from '../../electron/core/create-core.js';
import { createMemory } from '../../memory/index.js';
import {
  startFakeAnthropic,
  text,
  toolUse,
  validateRequest,
  type LoggedRequest,
} from '../fixtures/fake-anthropic/index.js';
import type { AppLine } from './app-worker.js';
import { BackendClient, faultHost } from './backend-client.js';
import { PREFIX } from './protocol.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, here.split(path.sep).includes('dist') ? '../../..' : '../..');
const APP = path.join(root, 'dist/test/faults/app-worker.js');
const CLI = path.join(root, 'dist/electron/cli.js');
const SHARED = '/memories/shared.md';
const COMPACT_TRIGGER = 50_000;
/** A CLI run or the app's last operation that takes longer than this hangs. */
const HANG_MS = 45_000;

export interface TwoProcessResult {
  problems: string[];
  cliRuns: number;
  cliAcked: number;
  appAcked: number;
  summary: string;
}

/** The text the user typed last in a request (notes and memory blocks left out; of two turns merged, the later). */
function lastUserText(body: { messages: { role: string; content: unknown }[] }): string {
  for (let i = body.messages.length - 1; i >= 0; i--) {
    const m = body.messages[i]!;
    if (m.role !== 'user' || !Array.isArray(m.content)) continue;
    const texts = (m.content as { type: string; text?: string }[]).filter((b) => b.type === 'text');
    const mine = texts
      .map((b) => b.text ?? '')
      .filter((t) => /^(insert )?(app|cli)-\d+/.test(t))
      .at(-1);
    if (mine) return mine;
  }
  return '';
}

let toolIds = 0;
function reply(request: LoggedRequest) {
  const messages = request.body?.messages as { role: string; content: unknown }[] | undefined;
  if (!messages) return undefined;
  const last = messages.at(-1)!;
  const blocks = (Array.isArray(last.content) ? last.content : []) as { type: string; text?: string }[];
  // A tool's result answers the insert, unless the same message carries a new request of the user's (a
  // repaired history puts the results of an interrupted turn in front of the next message).
  const answered =
    blocks.some((b) => b.type === 'tool_result') &&
    !blocks.some((b) => b.type === 'text' && /^(insert )?(app|cli)-\d+/.test(b.text ?? ''));
  const said = lastUserText(request.body);
  const insert = /^insert (\S+)/.exec(said);
  if (insert && !answered)
    return toolUse({
      name: 'memory',
      input: { command: 'insert', path: SHARED, insert_line: 0, insert_text: insert[1]! },
      id: `toolu_two_${++toolIds}`,
    });
  return text(`Answer to ${said || 'nothing'}.`);
}

function runCli(dataDir: string, env: NodeJS.ProcessEnv, message: string) {
  return new Promise<{ code: number | null; out: string; hung: boolean }>((resolve) => {
    const child = spawn(process.execPath, [CLI, '--data-dir', dataDir, '--continue', message], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let hung = false;
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, HANG_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, hung });
    });
  });
}

export async function runTwoProcesses(options: { ms: number }): Promise<TwoProcessResult> {
  const problems: string[] = [];
  const fake = await startFakeAnthropic();
  fake.setDefault(reply);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'mnemo-two-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_BASE_URL: fake.url,
    HOME: dataDir,
  };
  delete env.MNEMO_DATA_DIR;
  delete env.MNEMO_DEBUG;
  const seed = await createMemory({ dataDir, watch: false });
  await seed.create(SHARED, '# shared\n');
  await seed.close();
  // The API's lowest compaction trigger: a 30 s run then compacts (the notes of the other process's
  // memory writes make the context grow fast), so a compaction lands inside the two processes' turns,
  // where it once swallowed the turn being answered.
  const settings = await createCore({ dataDir, host: faultHost, env });
  await new BackendClient(settings).call('settings.set', { patch: { compactTrigger: COMPACT_TRIGGER } });
  await settings.close();

  const messages: { text: string; answer: string }[] = [];
  const lines: string[] = [];
  let cliRuns = 0;
  let cliAcked = 0;
  let appAcked = 0;
  let conversationId: string | undefined;
  let resolveReady!: () => void;
  const ready = new Promise<void>((resolve) => (resolveReady = resolve));
  const app = spawn(process.execPath, [APP, dataDir, String(options.ms)], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let appDone = false;
  let buf = '';
  let stderr = '';
  app.stdout.on('data', (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    for (const raw of parts) {
      if (!raw.startsWith(PREFIX)) continue;
      const line = JSON.parse(raw.slice(PREFIX.length)) as AppLine;
      if (line.t === 'ready') {
        conversationId = line.conversationId;
        resolveReady();
      } else if (line.t === 'message') {
        messages.push({ text: line.text, answer: line.answer });
        appAcked++;
      } else if (line.t === 'line') lines.push(line.token);
      else if (line.t === 'fail' && !BUSY.test(line.message))
        problems.push(`app: ${line.what}: ${line.message}`);
      else if (line.t === 'done') appDone = true;
    }
  });
  app.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-3000)));
  const appExit = new Promise<number | null>((resolve) => app.on('exit', (code) => resolve(code)));
  const appTimer = setTimeout(() => {
    problems.push(`app: still running ${HANG_MS / 1000} s after its time was up (a hang)`);
    app.kill('SIGKILL');
  }, options.ms + HANG_MS);
  await Promise.race([ready, appExit]);

  for (let j = 0; !appDone && app.exitCode === null; j++) {
    const message = j % 2 === 0 ? `cli-${j} hello` : `insert cli-${j}`;
    const run = await runCli(dataDir, env, message);
    cliRuns++;
    if (run.hung) problems.push(`cli: "${message}" did not finish within ${HANG_MS / 1000} s (a hang)`);
    else if (run.code === 0 && !/refused:/.test(run.out)) {
      const answer = /Final answer:\n([^\n]*)/.exec(run.out)?.[1] ?? '';
      messages.push({ text: message, answer });
      // The line is acknowledged only if the CLI showed the memory call (and no refusal of it).
      if (message.startsWith('insert ') && /called memory/.test(run.out)) lines.push(`cli-${j}`);
      else if (message.startsWith('insert '))
        problems.push(
          `cli: "${message}" was answered without its memory call: ${run.out.trim().slice(-300)}`,
        );
      cliAcked++;
    } else if (!BUSY.test(run.out))
      problems.push(`cli: "${message}" exited ${run.code}: ${run.out.trim().slice(-400)}`);
  }
  const code = await appExit;
  clearTimeout(appTimer);
  if (code !== 0) problems.push(`app: exited ${code}: ${stderr.trim().slice(-1500)}`);

  // What both acknowledged is there, and the conversation still continues.
  const core = await createCore({ dataDir, host: faultHost, env });
  try {
    const client = new BackendClient(core);
    const { conversations } = await client.call('conversations.list', {});
    if (conversations.length !== 1)
      problems.push(`${conversations.length} conversations, expected the one both continued`);
    const id = conversationId ?? conversations[0]?.id;
    if (id) {
      const { items } = await client.call('conversations.get', { id });
      const users = items.flatMap((i) => (i.kind === 'user' ? [i.text] : []));
      const answers = items.flatMap((i) => (i.kind === 'assistant' ? [i.text] : []));
      for (const m of messages) {
        if (!users.includes(m.text)) problems.push(`lost record: the message "${m.text}"`);
        if (m.answer && !answers.includes(m.answer)) problems.push(`lost record: the answer "${m.answer}"`);
        // The answer is to this message (a request the model no longer sees is answered "nothing").
        const expected = `Answer to ${m.text}.`;
        if (m.answer && m.answer !== expected)
          problems.push(`unanswered: "${m.text}" got "${m.answer}", not "${expected}"`);
        // A turn is not interleaved with the other process's: no other message between it and its answer.
        const u = items.findIndex((i) => i.kind === 'user' && i.text === m.text);
        const a = items.findIndex((i, k) => k > u && i.kind === 'assistant' && i.text === m.answer);
        const between = items.slice(u + 1, a).filter((i) => i.kind === 'user');
        if (u >= 0 && a > u && between.length > 0)
          problems.push(
            `interleaved: "${between.map((i) => (i as { text: string }).text).join('", "')}" came between "${m.text}" and its answer`,
          );
      }
      const before = fake.messageRequests().length;
      const res = await client.call('chat.send', {
        conversationId: id,
        text: 'app-final check',
        memory: true,
      });
      const end = await client.finished(res.runId);
      if (end.status !== 'done')
        problems.push(`the conversation cannot be continued: ${end.error ?? end.status}`);
      if (fake.messageRequests().length === before) problems.push('the final check sent no request');
    }
    const shared = (await core.ctx.memory.read(SHARED)).content.split('\n');
    for (const token of lines)
      if (!shared.includes(token)) problems.push(`lost record: the line "${token}" of ${SHARED}`);
  } finally {
    await core.close();
  }
  const requests = fake.messageRequests();
  for (const [i, r] of requests.entries()) {
    const error = validateRequest(r.body, r.headers);
    if (error) problems.push(`invalid request ${i}: ${error.message}`);
  }
  await fake.close();
  // Each compaction's block leads the requests after it: the first of those counts it.
  const blocks = new Set(
    requests.flatMap((r) => {
      const first = (r.body?.messages as { content: unknown }[] | undefined)?.[0]?.content;
      const block = Array.isArray(first) ? (first[0] as { type?: string; content?: string }) : undefined;
      return block?.type === 'compaction' ? [block.content ?? ''] : [];
    }),
  );
  const summary =
    `two processes for ${options.ms / 1000} s: ${cliRuns} CLI runs (${cliAcked} answered), ${appAcked} app messages, ` +
    `${lines.length} acknowledged lines, ${requests.length} requests, ${blocks.size} compactions; ${problems.length} problems`;
  if (problems.length === 0) await rm(dataDir, { recursive: true, force: true });
  else problems.push(`data folder kept: ${dataDir}`);
  return { problems, cliRuns, cliAcked, appAcked, summary };
}

/** The refusal a run gets while the conversation is answering in the other process: not a failure. */
const BUSY = /answering in another window/i;
