// The UI's view of a conversation: user and assistant text, one item per tool call (with its result once
// known), and event items (memory loaded, context cleared or compacted, errors, the turn limit). The exact
// API history stays on the main side.
import type { TranscriptItem } from '../../../shared/channels/conversations.js';
import type { ConversationState } from './state.js';

type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((c) => (c && typeof c === 'object' && 'text' in c ? String(c.text) : '')).join('\n');
  }
  return '';
}

export function transcript(state: ConversationState): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  const tools = new Map<string, ToolItem>();
  for (const entry of state.entries) {
    if (entry.type === 'event') {
      const e = entry.record;
      items.push({
        kind: 'event',
        id: e.id,
        event: e.event,
        text: e.text,
        ...(e.detail ? { detail: e.detail } : {}),
        createdAt: e.at,
      });
      continue;
    }
    const m = entry.record;
    if (m.kind === 'backfill') continue;
    if (m.kind === 'user') {
      const text = m.text ?? m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
      items.push({ kind: 'user', id: m.id, text, createdAt: m.at, pinned: state.pinned.has(m.id) });
      continue;
    }
    if (m.kind === 'assistant') {
      const text = m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
      if (text) {
        items.push({
          kind: 'assistant',
          id: m.id,
          text,
          createdAt: m.at,
          pinned: state.pinned.has(m.id),
          interrupted: m.interrupted === true,
        });
      }
      for (const b of m.content) {
        if (b.type !== 'tool_use') continue;
        const item: ToolItem = {
          kind: 'tool',
          id: `tool-${b.id}`,
          toolUseId: b.id,
          name: b.name,
          input: b.input,
          result: null,
          isError: false,
          durationMs: null,
          createdAt: m.at,
        };
        tools.set(b.id, item);
        items.push(item);
      }
      continue;
    }
    for (const b of m.content) {
      if (b.type === 'tool_result') {
        const item = tools.get(b.tool_use_id);
        if (!item) continue;
        const meta = m.tools?.[b.tool_use_id];
        item.result = resultText(b.content);
        item.isError = b.is_error === true;
        item.durationMs = meta?.durationMs ?? null;
      } else if (b.type === 'text') {
        items.push({
          kind: 'event',
          id: `${m.id}-note`,
          event: 'memory_changed',
          text: 'Memory changed outside this conversation; the assistant was told.',
          detail: b.text,
          createdAt: m.at,
        });
      }
    }
  }
  return items;
}

/** The conversation as Markdown, for export. */
export function toMarkdown(title: string, state: ConversationState): string {
  const lines = [`# ${title}`, '', `_Exported from Mnemo on ${new Date().toISOString()}_`, ''];
  for (const item of transcript(state)) {
    switch (item.kind) {
      case 'user':
        lines.push(`## You${item.pinned ? ' (pinned)' : ''}`, '', item.text, '');
        break;
      case 'assistant':
        lines.push(`## Mnemo${item.interrupted ? ' (interrupted)' : ''}`, '', item.text, '');
        break;
      case 'tool':
        lines.push(
          `> Tool \`${item.name}\` ${JSON.stringify(item.input)}${item.isError ? ' (error)' : ''}`,
          '',
        );
        if (item.result) lines.push('```', item.result.slice(0, 4_000), '```', '');
        break;
      case 'event':
        lines.push(`_${item.text}_`, '');
        break;
    }
  }
  return lines.join('\n');
}
