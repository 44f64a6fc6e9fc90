// The memory panel's slice: the folder listing, the open file with its facts, its history, search and
// the stale list. Actions talk to the backend through the contract only; `memory.changed` events (from the
// agent, the user, another program) arrive through bindMemoryEvents and refresh what is on screen.
import { create } from 'zustand';
import type { Api, EventPayload, ResOut } from '../../shared/contract';
import type { Fact, JournalEntry, MemoryEntry } from '../../shared/channels/memory';
import { getApi } from '../api';
import { registerBinder } from './bridge';
import { useChat } from './chat';
import { errorMessage } from '../lib/format';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface OpenFile {
  path: string;
  content: string;
  version: string;
  facts: Fact[];
}

export type SearchHit = ResOut<'memory.search'>['hits'][number];
export type MemoryChange = EventPayload<'memory.changed'>;

export interface MemoryState {
  entries: MemoryEntry[];
  totalBytes: number;
  listStatus: LoadStatus;
  listError: string | null;
  /** Folder paths the user collapsed (everything else is open). */
  collapsed: ReadonlySet<string>;
  /** The file shown in the detail view. */
  selected: string | null;
  file: OpenFile | null;
  fileStatus: LoadStatus;
  fileError: string | null;
  /** The editor holds unsaved text: a change on disk must not replace it silently. */
  editorDirty: boolean;
  /** Set when the open file changed on disk while the editor was dirty. */
  changedOnDisk: boolean;
  history: JournalEntry[];
  historyFor: string | null;
  historyStatus: LoadStatus;
  query: string;
  hits: SearchHit[];
  truncated: boolean;
  searchStatus: LoadStatus;
  searchError: string | null;
  stale: MemoryEntry[];
  lastChange: MemoryChange | null;
}

const initial: MemoryState = {
  entries: [],
  totalBytes: 0,
  listStatus: 'idle',
  listError: null,
  collapsed: new Set(),
  selected: null,
  file: null,
  fileStatus: 'idle',
  fileError: null,
  editorDirty: false,
  changedOnDisk: false,
  history: [],
  historyFor: null,
  historyStatus: 'idle',
  query: '',
  hits: [],
  truncated: false,
  searchStatus: 'idle',
  searchError: null,
  stale: [],
  lastChange: null,
};

export const useMemoryStore = create<MemoryState>()(() => ({ ...initial }));

const set = useMemoryStore.setState;
const get = useMemoryStore.getState;

/** The code of an error that crossed the contract ('conflict', 'not_found', ...), if any. */
export function errorCode(err: unknown): string | undefined {
  if (err && typeof err === 'object' && 'code' in err && typeof err.code === 'string') return err.code;
  return undefined;
}

// Responses can overtake each other (a burst of memory.changed events): only the newest request's answer
// is applied.
let listSeq = 0;
let fileSeq = 0;
let searchSeq = 0;

export async function loadList(): Promise<void> {
  const seq = ++listSeq;
  if (get().listStatus !== 'ready') set({ listStatus: 'loading', listError: null });
  try {
    const res = await getApi()['memory.list']({});
    if (seq !== listSeq) return;
    set({
      entries: res.entries,
      totalBytes: res.totalBytes,
      stale: res.entries.filter((e) => e.kind === 'file' && e.stale),
      listStatus: 'ready',
      listError: null,
    });
  } catch (err) {
    if (seq === listSeq) set({ listStatus: 'error', listError: errorMessage(err) });
  }
}

export function toggleFolder(path: string): void {
  const collapsed = new Set(get().collapsed);
  if (collapsed.has(path)) collapsed.delete(path);
  else collapsed.add(path);
  set({ collapsed });
}

export async function openFile(path: string): Promise<void> {
  const seq = ++fileSeq;
  const same = get().selected === path && get().file?.path === path;
  set({
    selected: path,
    fileStatus: same ? get().fileStatus : 'loading',
    fileError: null,
    changedOnDisk: false,
    ...(same ? {} : { file: null, editorDirty: false, history: [], historyFor: null, historyStatus: 'idle' }),
  });
  try {
    const res = await getApi()['memory.read']({ path });
    if (seq !== fileSeq) return;
    set({ file: res, fileStatus: 'ready', changedOnDisk: false });
  } catch (err) {
    if (seq !== fileSeq) return;
    set({ fileStatus: 'error', fileError: errorMessage(err), file: null });
  }
}

export function closeFile(): void {
  fileSeq++;
  set({
    selected: null,
    file: null,
    fileStatus: 'idle',
    fileError: null,
    editorDirty: false,
    changedOnDisk: false,
    history: [],
    historyFor: null,
  });
}

export function setEditorDirty(dirty: boolean): void {
  if (get().editorDirty !== dirty) set({ editorDirty: dirty });
}

export async function loadHistory(path: string): Promise<void> {
  set({ historyStatus: 'loading', historyFor: path });
  try {
    const res = await getApi()['memory.history']({ path });
    if (get().historyFor !== path) return;
    // Newest first: the user looks for the change that just happened.
    const entries = [...res.entries].sort((a, b) => b.at.localeCompare(a.at));
    set({ history: entries, historyStatus: 'ready' });
  } catch {
    if (get().historyFor === path) set({ historyStatus: 'error' });
  }
}

export type SaveResult =
  | { kind: 'saved'; journalId: string }
  | { kind: 'conflict'; theirs: OpenFile }
  | { kind: 'error'; message: string };

/** Save the editor's text; a file changed meanwhile comes back as a conflict with its current version. */
export async function saveFile(
  path: string,
  content: string,
  baseVersion: string | null,
): Promise<SaveResult> {
  try {
    const res = await getApi()['memory.write']({ path, content, baseVersion });
    set({ editorDirty: false, changedOnDisk: false });
    await Promise.all([openFile(path), loadList()]);
    return { kind: 'saved', journalId: res.journalId };
  } catch (err) {
    if (errorCode(err) !== 'conflict') return { kind: 'error', message: errorMessage(err) };
    try {
      const theirs = await getApi()['memory.read']({ path });
      return { kind: 'conflict', theirs };
    } catch (readErr) {
      return { kind: 'error', message: errorMessage(readErr) };
    }
  }
}

export async function createFile(path: string, content = ''): Promise<string> {
  const res = await getApi()['memory.create']({ path, content });
  await loadList();
  await openFile(path);
  return res.journalId;
}

export async function renameFile(path: string, newPath: string): Promise<string> {
  const res = await getApi()['memory.rename']({ path, newPath });
  if (get().selected === path) await openFile(newPath);
  await loadList();
  return res.journalId;
}

export async function deleteFile(path: string): Promise<string> {
  const res = await getApi()['memory.delete']({ path });
  if (get().selected === path) closeFile();
  await loadList();
  return res.journalId;
}

/** Undo a delete: the file comes back with its history. */
export async function restoreFile(journalId: string): Promise<void> {
  await getApi()['memory.restore']({ journalId });
  await loadList();
}

/** Undo one journaled change (an edit, a forgotten fact, a rename) or revert to before it. */
export async function revertChange(journalId: string): Promise<void> {
  await getApi()['memory.revert']({ journalId });
  const { selected } = get();
  await Promise.all([loadList(), selected ? openFile(selected) : Promise.resolve()]);
  if (selected && get().historyFor === selected) await loadHistory(selected);
}

export async function forgetFact(fact: Fact): Promise<string> {
  const file = get().file;
  if (!file) throw new Error('Open the file first.');
  const res = await getApi()['memory.forgetFact']({
    path: file.path,
    factId: fact.id,
    baseVersion: file.version,
  });
  await Promise.all([openFile(file.path), loadList()]);
  return res.journalId;
}

/** "Forget permanently": the file, every trace of it in the journal and its copies in conversations. Not undoable. */
export async function forgetPermanently(path: string): Promise<void> {
  await getApi()['memory.forget']({ path });
  if (get().selected === path) closeFile();
  await loadList();
  // The open conversation's copies of the file were just redacted: show it as it is now.
  const chat = useChat.getState();
  if (chat.conversationId) await chat.open(chat.conversationId);
}

export async function loadDiff(journalId: string): Promise<ResOut<'memory.diff'>> {
  return getApi()['memory.diff']({ journalId });
}

export async function search(query: string): Promise<void> {
  const seq = ++searchSeq;
  const trimmed = query.trim();
  set({ query });
  if (!trimmed) {
    set({ hits: [], truncated: false, searchStatus: 'idle', searchError: null });
    return;
  }
  set({ searchStatus: 'loading', searchError: null });
  try {
    const res = await getApi()['memory.search']({ query: trimmed, limit: 100 });
    if (seq !== searchSeq) return;
    set({ hits: res.hits, truncated: res.truncated, searchStatus: 'ready' });
  } catch (err) {
    if (seq === searchSeq) set({ searchStatus: 'error', searchError: errorMessage(err), hits: [] });
  }
}

export function clearSearch(): void {
  searchSeq++;
  set({ query: '', hits: [], truncated: false, searchStatus: 'idle', searchError: null });
}

export async function loadStale(): Promise<void> {
  try {
    const res = await getApi()['memory.stale']({});
    set({ stale: res.entries });
  } catch {
    // The listing's own stale flags stay on screen; the review list is an extra view.
  }
}

export async function exportMemory(includeJournal: boolean): Promise<ResOut<'memory.export'>> {
  return getApi()['memory.export']({ includeJournal });
}

export async function previewImport(uploadId?: string): Promise<ResOut<'memory.importPreview'>> {
  return getApi()['memory.importPreview'](uploadId === undefined ? {} : { uploadId });
}

export async function applyImport(
  token: string,
  overwriteConflicts: boolean,
): Promise<ResOut<'memory.importApply'>> {
  const res = await getApi()['memory.importApply']({ token, overwriteConflicts });
  await loadList();
  const { selected } = get();
  if (selected) await openFile(selected);
  return res;
}

// Live updates. Events come in bursts (an import, an agent's str_replace series), so reloading the list is
// coalesced into one request per animation-frame-sized window.
let listTimer: ReturnType<typeof setTimeout> | null = null;
function scheduleListReload(): void {
  if (listTimer) return;
  listTimer = setTimeout(() => {
    listTimer = null;
    void loadList();
    if (get().query.trim()) void search(get().query);
  }, 30);
}

export function onMemoryChanged(change: MemoryChange): void {
  set({ lastChange: change });
  scheduleListReload();
  const { selected, editorDirty, historyFor } = get();
  if (!selected) return;
  const touched = change.path === selected || change.newPath === selected;
  if (!touched) return;
  if (
    (change.command === 'delete' || change.command === 'forget') &&
    change.path === selected &&
    !change.newPath
  ) {
    if (editorDirty) set({ changedOnDisk: true });
    else closeFile();
    return;
  }
  const now = change.newPath && change.path === selected ? change.newPath : selected;
  if (editorDirty) set({ changedOnDisk: true });
  else void openFile(now);
  if (historyFor === selected) void loadHistory(now);
}

/** Subscribes the slice to backend events; returns the unsubscribe function. */
export function bindMemoryEvents(api: Api = getApi()): () => void {
  return api.on('memory.changed', onMemoryChanged);
}

/** For tests: back to the empty state. */
export function resetMemoryStore(): void {
  listSeq++;
  fileSeq++;
  searchSeq++;
  if (listTimer) clearTimeout(listTimer);
  listTimer = null;
  set({ ...initial, collapsed: new Set() });
}

registerBinder('memory', bindMemoryEvents);
