// Temporary conversations (started without memory) live in this process's memory only: no file, no page
// index, no row in the summary cache, nothing for the recall index or sync to find. A person expects a
// temporary chat to leave no trace, and what is never written cannot be left behind by a crash either.
// It ends when the window leaves it (ConversationStore.end) or the process does.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Folder } from './folder-load.js';
import { removePageFile } from './page-file.js';
import type { ConversationRecord, MetaRecord } from './records.js';
import { type ConversationState, applyRecord, emptyState } from './state.js';

export class TemporaryChats {
  private readonly states = new Map<string, ConversationState>();

  create(meta: MetaRecord, records: readonly ConversationRecord[]): ConversationState {
    const state = emptyState(meta);
    this.states.set(meta.id, this.apply(state, records));
    return state;
  }

  get(id: string): ConversationState | undefined {
    return this.states.get(id);
  }

  has(id: string): boolean {
    return this.states.has(id);
  }

  apply(state: ConversationState, records: readonly ConversationRecord[]): ConversationState {
    for (const record of records) applyRecord(state, record);
    return state;
  }

  /** True when `id` was one (and is now gone). */
  drop(id: string): boolean {
    return this.states.delete(id);
  }

  clear(): void {
    this.states.clear();
  }
}

/**
 * Earlier versions kept temporary conversations in files like any other. Those found by a start's check
 * of the folder are erased (the file and its page index) and leave `folder`; returns how many. The
 * summary cache, which holds their titles and first lines, is the caller's to replace.
 */
export async function eraseKeptTemporary(dir: string, folder: Folder): Promise<number> {
  let erased = 0;
  for (const [id, { head }] of folder.heads) {
    // Only a meta that says so: one without the flag is not known to be temporary.
    if (head.memory !== false) continue;
    await fs.rm(path.join(dir, `${id}.jsonl`), { force: true });
    await removePageFile(dir, id).catch(() => undefined);
    folder.heads.delete(id);
    folder.bodies.delete(id);
    erased += 1;
  }
  return erased;
}
