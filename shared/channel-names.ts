// The contract's channel names as plain strings, for code that must not load zod or the schemas: the
// sandboxed preload (bundled into one small file) and the renderer's transports. Kept equal to
// Object.keys(invoke) / Object.keys(events) by the type checks below (a channel added to the contract but
// not here, or listed here but not in the contract, fails to compile) and by test/unit/rpc/channel-names.test.ts.
import type { EventName, InvokeName } from './contract.js';

export const invokeChannelNames = [
  'app.info',
  'app.openExternal',
  'app.openDataFolder',
  'app.ready',
  'chat.send',
  'chat.abort',
  'chat.attach',
  'chat.retry',
  'chat.regenerate',
  'chat.editResend',
  'chat.pin',
  'chat.review',
  'context.get',
  'context.compact',
  'conversations.list',
  'conversations.get',
  'conversations.create',
  'conversations.rename',
  'conversations.delete',
  'conversations.search',
  'conversations.export',
  'memory.list',
  'memory.read',
  'memory.write',
  'memory.create',
  'memory.rename',
  'memory.delete',
  'memory.forgetFact',
  'memory.revert',
  'memory.history',
  'memory.diff',
  'memory.deleted',
  'memory.restore',
  'memory.forget',
  'memory.search',
  'memory.stale',
  'memory.export',
  'memory.importPreview',
  'memory.importApply',
  'settings.get',
  'settings.set',
  'settings.setApiKey',
  'settings.reset',
] as const satisfies readonly InvokeName[];

export const eventChannelNames = [
  'app.command',
  'app.notice',
  'chat.event',
  'context.changed',
  'conversations.changed',
  'memory.changed',
  'settings.changed',
] as const satisfies readonly EventName[];

type Missing<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : Exclude<All, Listed>;
/** A compile error here names a contract channel missing from the lists above: add it. */
const _invokeListComplete: Missing<InvokeName, (typeof invokeChannelNames)[number]> = true;
const _eventListComplete: Missing<EventName, (typeof eventChannelNames)[number]> = true;

const invokeSet: ReadonlySet<string> = new Set(invokeChannelNames);
const eventSet: ReadonlySet<string> = new Set(eventChannelNames);
export const isInvokeChannel = (name: unknown): name is InvokeName =>
  typeof name === 'string' && invokeSet.has(name);
export const isEventChannel = (name: unknown): name is EventName =>
  typeof name === 'string' && eventSet.has(name);

/** Electron IPC channel names used by preload.cts and ipc.ts (one generic invoke channel; see ipc.ts). */
export const IPC_INVOKE = 'mnemo:invoke';
export const IPC_EVENT = 'mnemo:event';
