// A sync commit's message: a summary a person can read in any git client, and trailers a device reads
// back (who changed which file, when, in which conversation and tool call, on which device), so a change
// that arrives is journaled with the provenance it had where it was made.
import type { JournalEntry } from '../../../memory/index.js';

export type Origin = 'agent' | 'user' | 'external' | 'import' | 'system';

export interface ChangeProvenance {
  /** The tree path (memories/notes.md, conversations/<id>.jsonl, space.json). */
  p: string;
  actor: Origin;
  at: string;
  conversation?: string;
  title?: string;
  tool?: string;
  /** The device the change was first made on (a merge commit passes the other device's changes on). */
  device?: string;
}

const TRAILER_DEVICE = 'Mnemo-Device';
const TRAILER_DATE = 'Mnemo-Date';
const TRAILER_CHANGE = 'Mnemo-Change';
const MAX_TRAILERS = 2_000;

const who: Record<Origin, string> = {
  agent: 'Claude',
  user: 'the user',
  external: 'another program',
  import: 'an import',
  system: 'Mnemo',
};

export function commitMessage(
  device: string,
  at: number,
  changes: ChangeProvenance[],
  subject?: string,
): string {
  const memories = changes.filter((c) => c.p.startsWith('memories/')).length;
  const conversations = changes.filter((c) => c.p.startsWith('conversations/')).length;
  const counts = [
    memories && `${memories} memory file${memories === 1 ? '' : 's'}`,
    conversations && `${conversations} conversation${conversations === 1 ? '' : 's'}`,
  ].filter(Boolean);
  const head = subject ?? `Mnemo sync from ${oneLine(device)}: ${counts.join(', ') || 'space details'}`;
  const body = changes.slice(0, 200).map((c) => {
    const where = c.title
      ? ` in “${oneLine(c.title)}”`
      : c.conversation
        ? ` in conversation ${c.conversation}`
        : '';
    const tool = c.tool ? ` (tool call ${c.tool})` : '';
    return `${c.p}: ${who[c.actor]}${where}${tool}, ${c.at}`;
  });
  const trailers = [
    `${TRAILER_DEVICE}: ${oneLine(device)}`,
    `${TRAILER_DATE}: ${new Date(at).toISOString()}`,
    ...changes.slice(0, MAX_TRAILERS).map((c) => `${TRAILER_CHANGE}: ${JSON.stringify(c)}`),
  ];
  return [head, '', ...(body.length ? [...body, ''] : []), ...trailers, ''].join('\n');
}

export interface ParsedCommit {
  device?: string;
  changes: ChangeProvenance[];
}

const ORIGINS = new Set<string>(['agent', 'user', 'external', 'import', 'system']);
const ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Reads the trailers back; anything malformed (a hostile remote's commit) is dropped, never trusted. */
export function parseCommit(message: string): ParsedCommit {
  const out: ParsedCommit = { changes: [] };
  for (const line of message.split('\n')) {
    if (line.startsWith(`${TRAILER_DEVICE}: `))
      out.device = cleanDevice(line.slice(TRAILER_DEVICE.length + 2));
    if (!line.startsWith(`${TRAILER_CHANGE}: `) || out.changes.length >= MAX_TRAILERS) continue;
    try {
      const c = JSON.parse(line.slice(TRAILER_CHANGE.length + 2)) as Partial<ChangeProvenance>;
      if (typeof c.p !== 'string' || typeof c.actor !== 'string' || !ORIGINS.has(c.actor)) continue;
      const change: ChangeProvenance = {
        p: c.p,
        actor: c.actor as Origin,
        at: typeof c.at === 'string' ? c.at.slice(0, 40) : '',
      };
      if (typeof c.conversation === 'string' && ID.test(c.conversation)) change.conversation = c.conversation;
      if (typeof c.tool === 'string' && ID.test(c.tool)) change.tool = c.tool;
      if (typeof c.title === 'string') change.title = oneLine(c.title).slice(0, 200);
      if (typeof c.device === 'string') change.device = cleanDevice(c.device);
      out.changes.push(change);
    } catch {
      // not ours: ignored
    }
  }
  return out;
}

// Control characters, and invisible or direction-changing ones that would make two names look alike.
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** A device name as shown and stored: one line, printable, at most 60 characters. */
export function cleanDevice(raw: string): string {
  const name = raw.replace(UNPRINTABLE, '').trim();
  return [...name].slice(0, 60).join('') || 'another device';
}

function oneLine(s: string): string {
  return s.replace(/\s+/gu, ' ').trim();
}

/** The newest journal entry per path since the last sync, as provenance for the next commit. */
export function provenanceFromJournal(
  entries: readonly JournalEntry[],
  device: string,
): Map<string, ChangeProvenance> {
  const out = new Map<string, ChangeProvenance>();
  for (const e of entries) {
    for (const path of [e.path, e.newPath]) {
      if (!path || !path.startsWith('/memories/')) continue;
      const p = `memories/${path.slice('/memories/'.length)}`;
      if (out.has(p)) continue;
      const actor: Origin = e.actor === 'sync' ? (e.origin ?? 'external') : e.actor;
      const c: ChangeProvenance = { p, actor, at: e.at };
      if (e.conversationId) c.conversation = e.conversationId;
      if (e.conversationTitle) c.title = e.conversationTitle;
      if (e.toolUseId) c.tool = e.toolUseId;
      c.device = e.actor === 'sync' && e.device ? e.device : device;
      out.set(p, c);
    }
  }
  return out;
}
