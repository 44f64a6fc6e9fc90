// The UI's view of a conversation (user and assistant text, one item per tool call, the cards), built by
// the one projection in shared/projection, which the chat also applies to live run events. The exact API
// history stays on the main side.
import type { TranscriptItem } from '../../../shared/channels/conversations.js';
import { projectEntries } from '../../../shared/projection/project.js';
import type { ConversationState } from './state.js';

/** Its items; `end`: only the entries before it (what a running run's saved seq covers, runs.ts). */
export function transcript(state: ConversationState, end?: number): TranscriptItem[] {
  return projectEntries(end === undefined ? state.entries : state.entries.slice(0, end), state.pinned);
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
      case 'error':
        lines.push(`_${item.message}_`, '');
        break;
      case 'review':
        lines.push(`_Review of ${item.command} ${item.path}: ${item.outcome ?? 'not decided'}_`, '');
        break;
    }
  }
  return lines.join('\n');
}
