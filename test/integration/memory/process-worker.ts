// A child process for the multi-process and crash tests, run from dist/ (node dist/test/integration/memory/process-worker.js).
//   shared <dataDir> <id> <count>: creates its own files and inserts lines into one shared file.
//   crash <dataDir> <start> <end>: whole-file writes, printing "ack <i>" after each one reports success.
//   tool <dataDir> <json>...: runs each memory-tool command given (JSON) in order; fails on a refusal.
import { createMemory } from '../../../memory/index.js';

export function crashContent(i: number): string {
  return `v${i}\n${'x'.repeat((i * 7919) % 40000)}\nend\n`;
}
export const crashFile = (i: number): string => `/memories/f${i % 10}.md`;

async function main(): Promise<void> {
  const [mode, dataDir, a, b] = process.argv.slice(2);
  const memory = await createMemory({ dataDir: dataDir!, watch: false });
  if (mode === 'shared') {
    const id = a!;
    const count = Number(b);
    const actor = { kind: 'agent', conversationId: `proc-${id}`, toolUseId: 'toolu' } as const;
    for (let i = 0; i < count; i++) {
      const c = await memory.tool.execute(
        { command: 'create', path: `/memories/p${id}/n${i}.md`, file_text: `${id}:${i}` },
        actor,
      );
      const ins = await memory.tool.execute(
        { command: 'insert', path: '/memories/shared.md', insert_line: 0, insert_text: `p${id}-${i}` },
        actor,
      );
      if (c.isError || ins.isError) throw new Error(`${c.content} ${ins.content}`);
    }
  } else if (mode === 'tool') {
    const actor = { kind: 'agent', conversationId: 'other-process', toolUseId: 'toolu' } as const;
    for (const json of process.argv.slice(4)) {
      const r = await memory.tool.execute(JSON.parse(json), actor);
      if (r.isError) throw new Error(r.content);
    }
  } else if (mode === 'crash') {
    for (let i = Number(a); i < Number(b); i++) {
      await memory.write(crashFile(i), crashContent(i), 'any');
      process.stdout.write(`ack ${i}\n`);
    }
  }
  await memory.close();
  process.stdout.write('done\n');
}

if (process.argv[1]?.endsWith('process-worker.js')) {
  main().catch((err: unknown) => {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  });
}
