// TEMPORARY: the spaces slice as this feature expects it, until spaces-wire's store lands.
import { create } from 'zustand';
import { getApi } from '../../api';
import { errorMessage } from '../../lib/format';
import { toast } from '../../store/toast';

export const PERSONAL_ID = 'personal';

export interface SpaceView {
  id: string;
  name: string;
  colour: string;
  conversations?: number | undefined;
  memoryFiles?: number | undefined;
}

interface State {
  list: SpaceView[];
  current: string;
}
const useStore = create<State>()(() => ({
  list: [{ id: PERSONAL_ID, name: 'Personal', colour: '#6b7280' }],
  current: PERSONAL_ID,
}));
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const call = (name: string, req: unknown): Promise<any> =>
  (getApi() as unknown as Record<string, (r: unknown) => Promise<unknown>>)[name]!(req);

export function useSpaceList(): SpaceView[] {
  return useStore((s) => s.list);
}
export function useCurrentSpace(): SpaceView {
  return useStore((s) => s.list.find((x) => x.id === s.current) ?? s.list[0]!);
}
export async function switchSpace(id: string): Promise<void> {
  useStore.setState({ current: id });
}
export async function refreshCounts(): Promise<void> {
  const res = await call('spaces.list', { counts: true });
  useStore.setState({ list: res.spaces });
}
export async function createSpace(input: { name: string; colour: string }): Promise<SpaceView> {
  const res = await call('spaces.create', input);
  await refreshCounts();
  return res.space;
}
export async function updateSpace(id: string, patch: { name?: string; colour?: string }): Promise<void> {
  await call('spaces.update', { id, ...patch });
  await refreshCounts();
}
export async function deleteSpace(id: string): Promise<boolean> {
  const space = useStore.getState().list.find((s) => s.id === id);
  try {
    await call('spaces.delete', { id });
  } catch (err) {
    toast(errorMessage(err), { tone: 'error' });
    return false;
  }
  if (useStore.getState().current === id) await switchSpace(PERSONAL_ID);
  await refreshCounts();
  toast(`Deleted space “${space?.name ?? ''}”.`, {
    timeoutMs: 30_000,
    action: {
      label: 'Undo',
      run: async () => {
        await call('spaces.restore', { id });
        await refreshCounts();
        toast(`Restored space “${space?.name ?? ''}”.`, { tone: 'success' });
      },
    },
  });
  return true;
}
export async function exportSpace(id: string): Promise<void> {
  await call('memory.export', { spaceId: id });
}
export async function transferMemoryFile(
  mode: 'copy' | 'move',
  path: string,
  target: SpaceView,
): Promise<boolean> {
  await call(mode === 'copy' ? 'memory.copyToSpace' : 'memory.moveToSpace', { path, toSpace: target.id });
  return true;
}
export async function moveConversation(id: string, target: SpaceView): Promise<boolean> {
  await call('conversations.move', { id, toSpace: target.id });
  return true;
}
