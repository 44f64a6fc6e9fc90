// The runs' kept events and "Forget permanently" (runs.ts, run-redact.ts): what a re-attaching window is
// replayed loses the forgotten file as the conversation's records do, including a quote split over deltas
// and what the run emits after the forget; runs of conversations the forget is not about keep theirs.
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../shared/channels/chat.js';
import { createRedactor, FORGOTTEN } from '../../../electron/core/conversations/redact.js';
import { FanOutBus } from '../../../electron/core/events.js';
import { RunRegistry } from '../../../electron/core/runs.js';

const PASSAGE = 'Allergic to penicillin since childhood, says the clinic';
const FILE = `# Health\n\n- ${PASSAGE}\n`;
const redactor = () => createRedactor({ paths: ['/memories/health.md'], versions: [FILE] });

function words(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [];
}

function setup() {
  const sent: RunEvent[] = [];
  const bus = new FanOutBus();
  bus.subscribe((name, payload) => {
    if (name === 'chat.event') sent.push(payload as RunEvent);
  });
  return { runs: new RunRegistry(bus), sent };
}

const all = (runs: RunRegistry, runId: string) => runs.attach({ runId, afterSeq: 0 }).events;

describe('forget and the runs kept for replay', () => {
  it('redacts kept deltas as one text, tool calls on the file whole, and what arrives after', () => {
    const { runs, sent } = setup();
    const run = runs.start('c1');
    run.emit({
      type: 'tool.call',
      toolUseId: 'tu1',
      name: 'memory',
      input: { command: 'view', path: '/memories/health.md' },
      turn: 1,
    });
    run.emit({
      type: 'tool.result',
      toolUseId: 'tu1',
      name: 'memory',
      result: FILE,
      isError: false,
      durationMs: 1,
    });
    const [head, ...rest] = words(`From your notes: ${PASSAGE}. And more.`);
    const before = words(`From your notes: Allergic to`);
    for (const w of [head!, ...rest.slice(0, before.length - 1)])
      run.emit({ type: 'text.delta', messageId: 'm1', text: w });
    runs.redact(redactor(), (id) => id === 'c1');
    // The rest of the quote arrives after the forget, one word at a time.
    for (const w of rest.slice(before.length - 1)) run.emit({ type: 'text.delta', messageId: 'm1', text: w });
    run.emit({ type: 'message.done', messageId: 'm1', interrupted: false });
    run.finish('done');

    const kept = all(runs, run.runId);
    expect(JSON.stringify(kept)).not.toContain('penicillin');
    expect(kept.map((e) => e.seq)).toEqual(kept.map((_, i) => i + 1));
    expect(kept.find((e) => e.type === 'tool.result')).toMatchObject({ result: FORGOTTEN });
    const done = sent.find((e) => e.type === 'message.done');
    // The window that watched it stream is given the redacted text with the message's end.
    expect(done).toMatchObject({ text: expect.stringContaining(FORGOTTEN) });
    expect(done && 'text' in done ? done.text : '').not.toContain('penicillin');
    expect(done && 'text' in done ? done.text : '').toContain('And more.');
  });

  it('a finished run still kept is redacted; another conversation’s run is left alone', () => {
    const { runs } = setup();
    const mine = runs.start('c1');
    const other = runs.start('c2');
    for (const run of [mine, other]) {
      for (const w of words(PASSAGE)) run.emit({ type: 'text.delta', messageId: `m-${run.runId}`, text: w });
      run.emit({ type: 'message.done', messageId: `m-${run.runId}`, interrupted: false });
      run.finish('done');
    }
    runs.redact(redactor(), (id) => id === 'c1');
    expect(JSON.stringify(all(runs, mine.runId))).not.toContain('penicillin');
    expect(JSON.stringify(all(runs, other.runId))).toContain('penicillin');
  });
});
