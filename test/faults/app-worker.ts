// The app's side of the two-process run (node dist/test/faults/app-worker.js <dataDir> <ms>): the real
// backend (createCore, as browser mode and the window run it) keeps one conversation going for <ms>,
// alternating plain messages, memory inserts by the model into /memories/shared.md and panel edits of the
// same file, while the CLI continues the same conversation from another process. Prints acks as JSON lines.
import { createCore } from '../../electron/core/create-core.js';
import { BackendClient, Hang, Refused, faultHost } from './backend-client.js';
import { PREFIX } from './protocol.js';

export type AppLine =
  | { t: 'ready'; conversationId: string }
  | { t: 'message'; text: string; answer: string }
  | { t: 'line'; token: string }
  | { t: 'fail'; what: string; message: string }
  | { t: 'done'; ops: number };

const say = (line: AppLine): void => void process.stdout.write(`${PREFIX}${JSON.stringify(line)}\n`);

export const SHARED = '/memories/shared.md';

async function main(): Promise<void> {
  const [dataDir, msArg] = process.argv.slice(2);
  const until = Date.now() + Number(msArg);
  const core = await createCore({ dataDir: dataDir!, host: faultHost });
  const refused = new Map<string, string>();
  const client = new BackendClient(core, (e) => {
    if (e.type === 'tool.result' && e.isError) refused.set(e.runId, e.result);
  });
  let conversationId: string | undefined;
  let ops = 0;
  const send = async (text: string): Promise<void> => {
    const res = await client.call('chat.send', {
      text,
      memory: true,
      ...(conversationId ? { conversationId } : {}),
    });
    const end = await client.finished(res.runId);
    if (end.status !== 'done') throw new Refused(end.error ?? end.status, 'run');
    if (refused.has(res.runId)) throw new Refused(refused.get(res.runId)!, 'tool');
    if (!conversationId) {
      conversationId = res.conversationId;
      say({ t: 'ready', conversationId });
    }
    say({ t: 'message', text, answer: end.answer });
  };
  for (let i = 0; Date.now() < until || !conversationId; i++) {
    const kind = i % 3;
    const token = `app-${i}`;
    try {
      if (kind === 0) await send(`${token} hello`);
      else if (kind === 1) {
        await send(`insert ${token}`);
        say({ t: 'line', token });
      } else {
        // The panel's save: a conflict (the CLI wrote since the read) is what the editor shows; save again.
        for (let attempt = 1; ; attempt++) {
          const { content, version } = await client.call('memory.read', { path: SHARED });
          try {
            await client.call('memory.write', {
              path: SHARED,
              content: `${token}\n${content}`,
              baseVersion: version,
            });
            break;
          } catch (error) {
            if (!(error instanceof Refused && error.code === 'conflict') || attempt === 5) throw error;
          }
        }
        say({ t: 'line', token });
      }
      ops++;
    } catch (error) {
      if (error instanceof Hang) {
        say({ t: 'fail', what: token, message: `HANG: ${error.message}` });
        process.exit(4);
      }
      if (!(error instanceof Refused)) throw error;
      say({ t: 'fail', what: token, message: error.message });
    }
  }
  await core.close();
  say({ t: 'done', ops });
}

if (process.argv[1]?.endsWith('app-worker.js')) {
  main().catch((error: unknown) => {
    process.stderr.write(`app worker failed: ${String((error as Error).stack)}\n`);
    process.exit(3);
  });
}
