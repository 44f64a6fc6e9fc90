// The two Electron IPC channels the preload and the main side use (electron/core/transports/ipc-*.ts): one
// generic invoke channel carrying {channel, payload}, one for events carrying {name, payload}. Contract
// channel names are not listed here or anywhere but the contract's tables (shared/channels/*.ts); the main
// side's dispatcher is the one place that checks a name. Plain strings, no zod: the preload bundles this.

export const IPC_INVOKE = 'mnemo:invoke';
export const IPC_EVENT = 'mnemo:event';
