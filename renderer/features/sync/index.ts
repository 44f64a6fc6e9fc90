export { SyncStatusLine } from './sync-status';
export { SyncSettings } from './sync-settings';
export { SyncConflictCards } from './conflict-card';
