// Loading a conversation's transcript, announced to every slice that derives something from it (the
// Activity tab's tool calls), so a long transcript crosses the wire once per opening, not once per slice.
// Depends on nothing but the Api, so any slice can use it without an import cycle.
import type { RunStatus } from '../../shared/channels/chat';
import type { TranscriptItem } from '../../shared/channels/conversations';
import { getApi } from '../api';

type Listener = (conversationId: string, items: Promise<readonly TranscriptItem[]>) => void;

const listeners = new Set<Listener>();

/** Be told of every transcript load, with its (pending) items. */
export function onTranscriptLoad(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A conversation's items, and the run still streaming into it with the last seq the items reflect. */
export interface LoadedTranscript {
  items: readonly TranscriptItem[];
  runs: readonly { runId: string; status: RunStatus; seq: number }[];
}

export function loadTranscript(conversationId: string): Promise<LoadedTranscript> {
  const get = getApi()['conversations.get'];
  const loaded = get({ id: conversationId }).then((res) => ({ items: res.items, runs: res.runs ?? [] }));
  const items = loaded.then((res) => res.items);
  for (const listener of listeners) listener(conversationId, items);
  return loaded;
}
