// What every domain's handlers get: the services of one backend instance (one data dir).
import type { Memory } from '../../memory/index.js';
import type { MemorySearch } from '../../memory/search/index.js';
import type { ApiKeyStatus, Settings } from '../../shared/channels/settings.js';
import type { SpaceInfo, SpaceListed, TrashedSpaceInfo } from '../../shared/channels/spaces.js';
import type { DomainHandlers, ReqOut, ResIn } from '../../shared/contract.js';
import type { Listing } from './conversations/folder-load.js';
import type { EventBus } from './events.js';
import type { HostServices } from './host.js';
import type { RunRegistry } from './runs.js';

export interface SettingsStore {
  get(): Settings;
  set(patch: Partial<Settings>): Settings;
  reset(): Settings;
  /** ANTHROPIC_API_KEY wins over a stored key. undefined when neither is set. */
  apiKey(): string | undefined;
  setApiKey(key: string | null): void;
  apiKeyStatus(): ApiKeyStatus;
}

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** The space a context works in (spaces/): the folder its memory, journal and conversations live in. */
export interface SpaceScope {
  id: string;
  /** Absolute: the data folder itself for Personal, DATA_DIR/spaces/<id> for the others. */
  dir: string;
  /** The name now (it can be renamed while open). */
  name(): string;
  /** Whether recall (searching this space's past conversations) is on: the space's own setting, default on. */
  recall?(): boolean;
  /** Turns recall on or off for this space (stored in its space.json). */
  setRecall?(on: boolean): Promise<void>;
}

/**
 * The backend's spaces as handlers see them (spaces/spaces.ts's Spaces fits it). An interface here, not
 * the class, so the handlers do not import spaces/ (which builds handler tables: that would be a cycle).
 */
export interface SpacesLink {
  list(): Promise<SpaceInfo[]>;
  get(id: string): Promise<SpaceInfo | undefined>;
  listWithCounts(): Promise<SpaceListed[]>;
  create(input: { name: string; colour?: string }): Promise<SpaceInfo>;
  rename(id: string, name: string): Promise<SpaceInfo>;
  recolour(id: string, colour: string): Promise<SpaceInfo>;
  configure(
    id: string,
    patch: {
      memoryWriteMode?: Settings['memoryWriteMode'] | null;
      backfillBudgetTokens?: number | null;
    },
  ): Promise<SpaceInfo>;
  delete(id: string): Promise<TrashedSpaceInfo>;
  trashed(): Promise<TrashedSpaceInfo[]>;
  restore(id: string): Promise<SpaceInfo>;
  /** Another space's context (opened on first use), checked to exist now; refuses one that does not. */
  route(id: string): Promise<{ id: string; ctx: CoreContext }>;
}

/**
 * Sync as the sync.* handlers see it (sync/link.ts over the SyncService fits it): an interface here, so
 * the handlers do not import sync/ (which reaches the spaces, which build handler tables: a cycle).
 */
export type SyncLink = {
  /** Each sync.* channel's work in a space, named and typed by the contract (a new channel adds none here). */
  [K in keyof DomainHandlers<'sync'>]: (spaceId: string, req: ReqOut<K>) => Promise<ResIn<K>>;
} & {
  /** Before a new conversation loads its memory: the other devices' changes, if they come quickly. */
  beforeConversation(spaceId: string): Promise<void>;
};

/**
 * What every space of a backend shares (createCore builds it once, before any space opens): each space's
 * context adds the services of its own folders to it.
 */
export type SharedContext = Omit<
  CoreContext,
  'space' | 'prefetched' | 'events' | 'runs' | 'settings' | 'memory' | 'memorySearch'
>;

export interface CoreContext {
  /** Absolute; never shown to the model. The data folder (logs, settings, the spaces), whatever the space. */
  dataDir: string;
  /** The space of this context; absent means Personal (DATA_DIR itself). */
  space?: SpaceScope;
  /** Every space of the backend (set by createCore): the spaces.* channels and transfers between spaces. */
  spaces?: SpacesLink;
  /**
   * Queues background work (an index load) until no space has been opening for a while (spaces/
   * idle-warm.ts; set by createCore, shared by every space). Absent: the caller picks its own delay.
   */
  idle?: (job: () => Promise<unknown>) => void;
  /** Every space's sync (set by createCore; absent in contexts built without it). */
  sync?: SyncLink;
  /**
   * A listing of a conversations folder taken while the backend opened (createCore lists Personal's
   * while its memory opens, openSpace a space's): given once, to the store of that folder, and by a
   * space only while fresh; otherwise undefined (the store lists the folder itself).
   */
  prefetched?: (conversationsDir: string) => Promise<Listing> | undefined;
  events: EventBus;
  runs: RunRegistry;
  host: HostServices;
  settings: SettingsStore;
  log: Logger;
  /** The space's memory folder (DATA_DIR/memories for Personal): store, tool, journal. */
  memory: Memory;
  /** Full-text index over the memory folder: the memory.search channel and the `memory_search` tool. */
  memorySearch: MemorySearch;
  /** ANTHROPIC_BASE_URL, read once at startup; not settable from the renderer. */
  baseUrl: string | undefined;
  version: string;
}
