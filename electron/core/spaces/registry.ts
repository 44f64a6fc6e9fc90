// The list of spaces on disk: Personal at the top of the data folder (its space.json written only when
// something about it changes), every other space in DIR/spaces/<id>/. Changes run under one cross-process
// lock (the desktop app and a CLI run may share the data folder) and are each a single atomic step, so a
// crash leaves a space either complete and listed or invisible (durable.ts). Reading takes no lock: every
// file it reads is replaced whole.
import { mkdirSync, readFileSync, statSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { ProcessLock } from '../../../memory/lock.js';
import { ContractError } from '../../../shared/errors.js';
import {
  moveFolder,
  removeTemps,
  replaceFile,
  spaceCrashPoint,
  TEMP_PREFIX,
  writeSynced,
  fsyncDir,
} from './durable.js';
import {
  cleanColour,
  cleanName,
  isSpaceId,
  nameKey,
  newSpaceId,
  PALETTE,
  PERSONAL_COLOUR,
  PERSONAL_ID,
  PERSONAL_NAME,
  SPACE_FILE,
  SPACE_FOLDERS,
  spaceDir,
  spaceFileSchema,
  spaceSettingsSchema,
  SPACES_FOLDER,
  toFile,
  toSpace,
  type Space,
  type SpaceSettings,
} from './model.js';
import { emptyTrash, keptUntil, listTrash, TRASH_FOLDER, TRASH_KEEP_MS, type TrashedSpace } from './trash.js';

export { TRASH_KEEP_MS };

/**
 * What spaces own outside their folders (sync's git folder, token and state in DIR/sync/): kept while a
 * space is in the trash, erased when the trash erases it. Given by createCore, which knows sync.
 */
export interface OutsideFiles {
  /** The ids that own something there now. */
  owners(): string[];
  erase(id: string): void | Promise<void>;
}

export class SpaceRegistry {
  readonly spacesDir: string;
  private lock: ProcessLock | undefined;

  constructor(
    readonly dataDir: string,
    private readonly outside?: OutsideFiles,
  ) {
    this.spacesDir = path.join(dataDir, SPACES_FOLDER);
  }

  /** Personal first, then the others by creation time. */
  async list(): Promise<Space[]> {
    const names = await fsp.readdir(this.spacesDir).catch(() => [] as string[]);
    const others = (await Promise.all(names.filter(isSpaceId).map((id) => this.read(id)))).filter(
      (s): s is Space => s !== undefined,
    );
    others.sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : a.id < b.id ? -1 : 1));
    return [this.personal(), ...others];
  }

  async get(id: string): Promise<Space | undefined> {
    if (id === PERSONAL_ID) return this.personal();
    return isSpaceId(id) ? this.read(id) : undefined;
  }

  /** The space of that id, or a not_found error a person can act on. */
  async require(id: string): Promise<Space> {
    const space = await this.get(id);
    if (!space) throw new ContractError('not_found', 'That space does not exist (it may have been deleted).');
    return space;
  }

  /** The space whose name matches without regard to case or Unicode form. */
  async find(name: string): Promise<Space | undefined> {
    const key = nameKey(name);
    return (await this.list()).find((s) => nameKey(s.name) === key);
  }

  /** Read at once, for what asks synchronously (a run's settings, the export's name); the file is tiny. */
  getSync(id: string): Space | undefined {
    if (id === PERSONAL_ID) return this.personal();
    if (!isSpaceId(id)) return undefined;
    try {
      const raw: unknown = JSON.parse(readFileSync(path.join(this.spacesDir, id, SPACE_FILE), 'utf8'));
      const parsed = spaceFileSchema.safeParse(raw);
      return parsed.success && parsed.data.id === id ? toSpace(parsed.data) : undefined;
    } catch {
      return undefined;
    }
  }

  async create(input: { name: string; colour?: string | undefined }): Promise<Space> {
    const name = cleanName(input.name);
    return this.locked(async () => {
      const spaces = await this.list();
      this.unique(spaces, name);
      const id = newSpaceId();
      const space: Space = {
        id,
        name,
        colour:
          input.colour !== undefined ? cleanColour(input.colour) : PALETTE[spaces.length % PALETTE.length]!,
        created: new Date().toISOString(),
        settings: {},
      };
      // Built complete under a temp name, then renamed into place: listed only once whole.
      const tmp = path.join(this.spacesDir, `${TEMP_PREFIX}${id}`);
      await fsp.mkdir(tmp, { mode: 0o700 });
      for (const folder of SPACE_FOLDERS) await fsp.mkdir(path.join(tmp, folder), { mode: 0o700 });
      await writeSynced(path.join(tmp, SPACE_FILE), json(space));
      await fsyncDir(tmp);
      spaceCrashPoint('space-create-before-rename');
      await moveFolder(tmp, path.join(this.spacesDir, id));
      spaceCrashPoint('space-create-after-rename');
      return space;
    });
  }

  async rename(id: string, newName: string): Promise<Space> {
    const name = cleanName(newName);
    return this.update(id, (space, all) => {
      this.unique(
        all.filter((s) => s.id !== id),
        name,
      );
      return { ...space, name };
    });
  }

  async recolour(id: string, colour: string): Promise<Space> {
    const clean = cleanColour(colour);
    return this.update(id, (space) => ({ ...space, colour: clean }));
  }

  /** Sets (a value) or clears (null: follow the global setting) a space's own settings. */
  async configure(
    id: string,
    patch: { [K in keyof SpaceSettings]?: SpaceSettings[K] | null },
  ): Promise<Space> {
    const values = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== null && v !== undefined));
    const parsed = spaceSettingsSchema.safeParse(values);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ContractError(
        'invalid_request',
        `Invalid space setting ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'rejected'}`,
      );
    }
    return this.update(id, (space) => {
      const settings: SpaceSettings = { ...space.settings, ...parsed.data };
      for (const [key, value] of Object.entries(patch))
        if (value === null) delete settings[key as keyof SpaceSettings];
      return { ...space, settings };
    });
  }

  /** Moves a space into the trash (one rename): restorable until the trash is emptied. */
  async delete(id: string): Promise<TrashedSpace> {
    if (id === PERSONAL_ID) {
      throw new ContractError(
        'invalid_request',
        'Personal cannot be deleted; it can be renamed or recoloured.',
      );
    }
    return this.locked(async () => {
      const space = await this.require(id);
      const trash = path.join(this.spacesDir, TRASH_FOLDER);
      await fsp.mkdir(trash, { recursive: true, mode: 0o700 });
      const deletedAt = Date.now();
      await moveFolder(path.join(this.spacesDir, id), path.join(trash, `${deletedAt}-${id}`));
      spaceCrashPoint('space-delete-after-rename');
      return { ...space, deletedAt: new Date(deletedAt).toISOString(), keptUntil: keptUntil(deletedAt) };
    });
  }

  /** Deleted spaces still restorable, newest first (without host paths: this may reach a window). */
  async trashed(): Promise<TrashedSpace[]> {
    return (await listTrash(path.join(this.spacesDir, TRASH_FOLDER))).map(({ folder: _, ...t }) => t);
  }

  /** Brings back the latest deleted copy of a space, unless a space took its name meanwhile. */
  async restore(id: string): Promise<Space> {
    return this.locked(async () => {
      const entry = (await listTrash(path.join(this.spacesDir, TRASH_FOLDER))).find((t) => t.id === id);
      if (!entry)
        throw new ContractError('not_found', 'That space is not in the trash (it may have been emptied).');
      if (await this.get(id)) throw new ContractError('conflict', 'That space exists already.');
      this.unique(await this.list(), entry.name);
      await moveFolder(entry.folder, path.join(this.spacesDir, id));
      spaceCrashPoint('space-restore-after-rename');
      return await this.require(id);
    });
  }

  /**
   * Erases trashed spaces deleted more than `olderThanMs` ago, with what they own outside their folders.
   * Returns how many. Outside files whose space is neither listed nor in the trash (a space erased by a
   * version that left them behind) go too: nothing can bring such a space back.
   */
  async emptyTrash(olderThanMs = TRASH_KEEP_MS, now = Date.now()): Promise<number> {
    const trash = path.join(this.spacesDir, TRASH_FOLDER);
    const erase = this.outside ? (id: string) => this.outside!.erase(id) : undefined;
    return this.locked(async () => {
      const removed = await emptyTrash(trash, now - olderThanMs, erase);
      if (this.outside) {
        const kept = new Set((await listTrash(trash)).map((t) => t.id));
        for (const id of this.outside.owners())
          if (isSpaceId(id) && !kept.has(id) && !(await this.read(id))) await this.outside.erase(id);
      }
      return removed;
    });
  }

  async close(): Promise<void> {
    await this.lock?.shutdown();
  }

  private personal(): Space {
    try {
      const parsed = spaceFileSchema.safeParse(
        JSON.parse(readFileSync(path.join(this.dataDir, SPACE_FILE), 'utf8')),
      );
      if (parsed.success && parsed.data.id === PERSONAL_ID) return toSpace(parsed.data);
    } catch {
      // Not written yet (nothing about Personal was changed), or unreadable: the defaults.
    }
    let created: string;
    try {
      const st = statSync(this.dataDir);
      created = new Date(st.birthtimeMs > 0 ? st.birthtimeMs : st.mtimeMs).toISOString();
    } catch {
      created = new Date(0).toISOString();
    }
    return { id: PERSONAL_ID, name: PERSONAL_NAME, colour: PERSONAL_COLOUR, created, settings: {} };
  }

  private async read(id: string): Promise<Space | undefined> {
    try {
      const raw: unknown = JSON.parse(await fsp.readFile(path.join(this.spacesDir, id, SPACE_FILE), 'utf8'));
      const parsed = spaceFileSchema.safeParse(raw);
      return parsed.success && parsed.data.id === id ? toSpace(parsed.data) : undefined;
    } catch {
      return undefined;
    }
  }

  private unique(spaces: readonly Space[], name: string): void {
    const key = nameKey(name);
    const taken = spaces.find((s) => nameKey(s.name) === key);
    if (taken)
      throw new ContractError(
        'conflict',
        `There is a space named ${taken.name} already; choose another name.`,
      );
  }

  private async update(id: string, change: (space: Space, all: Space[]) => Space): Promise<Space> {
    return this.locked(async () => {
      const all = await this.list();
      const space = all.find((s) => s.id === id);
      if (!space)
        throw new ContractError('not_found', 'That space does not exist (it may have been deleted).');
      const next = change(space, all);
      await replaceFile(path.join(spaceDir(this.dataDir, id), SPACE_FILE), json(next));
      return next;
    });
  }

  /** Runs a change under the registry's cross-process lock, after removing what a crash left. */
  private locked<T>(task: () => Promise<T>): Promise<T> {
    if (!this.lock) {
      const lockDir = path.join(this.spacesDir, LOCK_FOLDER);
      mkdirSync(lockDir, { recursive: true, mode: 0o700 });
      this.lock = new ProcessLock(lockDir);
    }
    const lock = this.lock;
    return (async () => {
      await lock.clearDeadOwner();
      return lock.run(async () => {
        // What a crash left: half-made spaces, and space.json replacements never renamed into place.
        const names = await fsp.readdir(this.spacesDir).catch(() => [] as string[]);
        await removeTemps(this.spacesDir);
        await removeTemps(this.dataDir, `${TEMP_PREFIX}${SPACE_FILE}`);
        for (const id of names.filter(isSpaceId)) await removeTemps(path.join(this.spacesDir, id));
        return task();
      });
    })();
  }
}

const LOCK_FOLDER = '.registry';

function json(space: Space): string {
  return `${JSON.stringify(toFile(space), null, 2)}\n`;
}
