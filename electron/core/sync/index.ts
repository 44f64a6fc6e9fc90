// Sync of a space through a git remote (issue 16). Plain Node; see README.md.
export { SpaceSync, type SyncOptions } from './engine.js';
export { defaultDeviceName, parseRemoteUrl, syncPaths, SYNC_FOLDER, type RemoteConfig } from './config.js';
export { SyncError, type SyncConflict, type SyncErrorKind, type SyncReport } from './report.js';
export { type SyncSpace } from './space-io.js';
export { spaceChanges, spaceSyncOf, syncSpaceOf, type SyncBackend } from './for-core.js';
export { syncLink } from './link.js';
export { SyncScheduler, type SyncStatus, DEFAULT_PERIOD_MS } from './scheduler.js';
export {
  SyncService,
  BEFORE_CONVERSATION_MS,
  type JoinInput,
  type JoinResult,
  type SyncServiceOptions,
} from './service.js';
export { type ConflictDetail, type Resolution } from './conflicts.js';
