// "Forget permanently" and the runs' kept events (runs.ts): a window that attaches to a run (a reload mid-run,
// resuming by sequence number) is replayed what it missed, so those events must hold no more of the file
// than the conversation's records do. The forget's own redactor decides: tool calls and results are seen
// as the records they become (so a call on the forgotten file and its result go whole, as in the file),
// a message's streamed text is redacted as one text (a quote split over several deltas is found), and
// every other content string is redacted as text. Events are changed in place; seq numbers stay.
import type { RunEvent } from '../../shared/channels/chat.js';
import type { Block, ConversationRecord } from './conversations/records.js';
import { walk, type Redactor } from './conversations/redact.js';

type Delta = Extract<RunEvent, { type: 'text.delta' }>;
type Call = Extract<RunEvent, { type: 'tool.call' }>;
type Result = Extract<RunEvent, { type: 'tool.result' }>;

/** Redacts kept events in place; true when any changed. */
export function redactRunEvents(events: readonly RunEvent[], redactor: Redactor): boolean {
  let changed = redactTools(events, redactor);
  const deltas = new Map<string, Delta[]>();
  for (const event of events) {
    if (event.type === 'text.delta') {
      const of = deltas.get(event.messageId);
      if (of) of.push(event);
      else deltas.set(event.messageId, [event]);
    } else if (event.type !== 'tool.call' && event.type !== 'tool.result') {
      if (walk(event, redactor.text)) changed = true;
    }
  }
  for (const of of deltas.values()) if (redactStreamed(of, redactor) !== null) changed = true;
  return changed;
}

/**
 * A message's deltas redacted as one text: when it changes, the first delta carries the redacted whole and
 * the others nothing (a window replaying them shows the redacted text). The redacted whole, or null.
 */
export function redactStreamed(deltas: readonly Delta[], redactor: Redactor): string | null {
  if (deltas.length === 0) return null;
  const whole = deltas.map((d) => d.text).join('');
  const redacted = redactor.text(whole);
  if (redacted === whole) return null;
  deltas.forEach((d, i) => (d.text = i === 0 ? redacted : ''));
  return redacted;
}

/** One event arriving after a forget, before anyone sees it; `kept` are the run's events so far. */
export function redactArriving(event: RunEvent, kept: readonly RunEvent[], redactor: Redactor): void {
  if (event.type === 'tool.call' || event.type === 'tool.result') {
    // A result needs its call to know whether it is about the forgotten file.
    const call = event.type === 'tool.result' ? kept.find((e) => isCallOf(e, event.toolUseId)) : undefined;
    redactTools(call ? [call, event] : [event], redactor);
    return;
  }
  walk(event, redactor.text);
  if (event.type === 'message.done') {
    const deltas = kept.filter((e): e is Delta => e.type === 'text.delta' && e.messageId === event.messageId);
    redactStreamed(deltas, redactor);
    // The window that watched the deltas stream (before the forget, or split over deltas) shows the
    // message's redacted text from here on.
    if (event.text === undefined && deltas.length > 0) event.text = deltas.map((d) => d.text).join('');
  }
}

const isCallOf = (e: RunEvent, toolUseId: string): e is Call =>
  e.type === 'tool.call' && e.toolUseId === toolUseId;

/** Tool calls and results as the records they are stored as, redacted by the records' rules. */
function redactTools(events: readonly RunEvent[], redactor: Redactor): boolean {
  const calls = events.filter((e): e is Call => e.type === 'tool.call');
  const results = events.filter((e): e is Result => e.type === 'tool.result');
  if (calls.length === 0 && results.length === 0) return false;
  const uses: Block[] = calls.map((c) => ({
    type: 'tool_use',
    id: c.toolUseId,
    name: c.name,
    input: c.input ?? {},
  }));
  const answers: Block[] = results.map((r) => ({
    type: 'tool_result',
    tool_use_id: r.toolUseId,
    content: [{ type: 'text', text: r.result }],
  }));
  const records: ConversationRecord[] = [
    { t: 'msg', id: 'calls', kind: 'assistant', role: 'assistant', content: uses, at: '' },
    { t: 'msg', id: 'results', kind: 'tool_results', role: 'user', content: answers, at: '' },
  ];
  if (!redactor.records(records)) return false;
  const [callRecord, resultRecord] = records as [
    (typeof records)[0] & { t: 'msg' },
    (typeof records)[1] & { t: 'msg' },
  ];
  callRecord.content.forEach((b, i) => {
    if (b.type === 'tool_use') calls[i]!.input = b.input;
  });
  resultRecord.content.forEach((b, i) => {
    if (b.type !== 'tool_result') return;
    const content = b.content;
    results[i]!.result =
      typeof content === 'string'
        ? content
        : (content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
  });
  return true;
}
