// A defensive ZIP reader for imports. fflate inflates; the structure is parsed here because the checks
// need fields fflate does not expose (external attributes for links, the UTF-8 flag, local-header names,
// offsets for overlap). Anything structurally hostile refuses the whole archive with an ArchiveError:
// a name escaping the root, a link or device entry, a non-UTF-8 name, duplicate names, overlapping
// entries, an entry inflating past its declared size, sizes or counts above the limits, a corrupt
// structure. Entries are inflated lazily, with a running byte count that stops a zip bomb early.
import { crc32 } from 'node:zlib';
import { Inflate } from 'fflate';
import { ArchiveError, type ArchiveLimits } from './limits.js';

export interface ZipEntry {
  /** The name as stored, '/'-separated, already checked not to escape (relative, no '..'). */
  name: string;
  isDir: boolean;
  /** Declared uncompressed size. */
  size: number;
  compressedSize: number;
  encrypted: boolean;
  /** 0 = stored, 8 = deflate; anything else cannot be read. */
  method: number;
  /** Inflate this entry; throws ArchiveError when it inflates past its declared size or is corrupt. */
  read(): Uint8Array;
}

const EOCD_SIG = 0x06054b50;
const CEN_SIG = 0x02014b50;
const LOC_SIG = 0x04034b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const CHUNK = 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function show(name: string): string {
  // eslint-disable-next-line no-control-regex -- replacing control characters is the point
  const printable = name.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return printable.length > 80 ? `${printable.slice(0, 77)}...` : printable;
}

function findEocd(view: DataView): number {
  const min = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let i = view.byteLength - 22; i >= min; i--) {
    if (view.getUint32(i, true) === EOCD_SIG) return i;
  }
  throw new ArchiveError(
    'This file is not a ZIP archive (no end-of-archive record). Export a .zip and try again.',
  );
}

/** Why a stored name may not be used as a relative path, or undefined when it is fine. */
export function escapeReason(name: string): string | undefined {
  if (name.includes('\\')) return 'uses backslashes in its path';
  if (name.startsWith('/')) return 'is an absolute path';
  if (/^[a-zA-Z]:/.test(name)) return 'names a drive letter';
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (/[\u0000-\u001f]/.test(name)) return 'contains control characters';
  if (name.split('/').some((seg) => seg === '..')) return 'climbs out of the folder with ".."';
  return undefined;
}

function decodeName(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ArchiveError(
      'An entry name is not valid UTF-8, so its real name is unknown. Re-create the archive with UTF-8 names.',
    );
  }
}

function entryKind(madeBy: number, external: number, name: string): 'file' | 'dir' | 'other' {
  const host = madeBy >> 8;
  const mode = (external >>> 16) & S_IFMT;
  // Unix-made entries carry the file type in the high 16 bits; 0 means "not set".
  if (host === 3 && mode !== 0) {
    if (mode === S_IFREG) return name.endsWith('/') ? 'dir' : 'file';
    if (mode === S_IFDIR) return 'dir';
    return 'other';
  }
  return name.endsWith('/') || (external & 0x10) !== 0 ? 'dir' : 'file';
}

function inflateLimited(data: Uint8Array, limit: number, name: string): Uint8Array {
  const parts: Uint8Array[] = [];
  let total = 0;
  const inflater = new Inflate((chunk) => {
    total += chunk.length;
    // Stop as soon as the output passes the declared size: a bomb never gets inflated in full.
    if (total > limit) throw new ArchiveError(bombMessage(name));
    parts.push(chunk);
  });
  try {
    for (let i = 0; i < data.length; i += CHUNK) {
      inflater.push(data.subarray(i, Math.min(i + CHUNK, data.length)), i + CHUNK >= data.length);
    }
    if (data.length === 0) inflater.push(new Uint8Array(0), true);
  } catch (error) {
    if (error instanceof ArchiveError) throw error;
    throw new ArchiveError(`The archive is damaged: "${show(name)}" cannot be decompressed.`);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const bombMessage = (name: string): string =>
  `Refused: "${show(name)}" decompresses to more than it declares (a zip bomb). Nothing was imported.`;

/** Parse and check the archive's structure. Throws ArchiveError for anything hostile or damaged. */
export function readZip(bytes: Uint8Array, limits: ArchiveLimits): ZipEntry[] {
  if (bytes.length > limits.maxArchiveBytes) {
    throw new ArchiveError(
      `The archive is ${bytes.length} bytes, above the ${limits.maxArchiveBytes}-byte import limit.`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 22) throw new ArchiveError('This file is too short to be a ZIP archive.');
  const eocd = findEocd(view);
  const disk = view.getUint16(eocd + 4, true);
  const cdDisk = view.getUint16(eocd + 6, true);
  const count = view.getUint16(eocd + 10, true);
  const cdSize = view.getUint32(eocd + 12, true);
  const cdOffset = view.getUint32(eocd + 16, true);
  if (disk !== 0 || cdDisk !== 0 || view.getUint16(eocd + 8, true) !== count) {
    throw new ArchiveError('Split (multi-part) ZIP archives are not supported. Create a single .zip file.');
  }
  const zip64 = eocd >= 20 && view.getUint32(eocd - 20, true) === ZIP64_LOCATOR_SIG;
  if (zip64 || count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    throw new ArchiveError('ZIP64 archives are not supported; a memory export is far smaller than 4 GB.');
  }
  if (count > limits.maxEntries) {
    throw new ArchiveError(`The archive has ${count} entries, above the limit of ${limits.maxEntries}.`);
  }
  if (cdOffset + cdSize > eocd)
    throw new ArchiveError('The archive is damaged (its directory is out of range).');

  const entries: (ZipEntry & { offset: number; dataStart: number; dataEnd: number })[] = [];
  const names = new Set<string>();
  let declaredTotal = 0;
  let p = cdOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > cdOffset + cdSize || view.getUint32(p, true) !== CEN_SIG) {
      throw new ArchiveError('The archive is damaged (a directory record is missing).');
    }
    const madeBy = view.getUint16(p + 4, true);
    const flags = view.getUint16(p + 8, true);
    const method = view.getUint16(p + 10, true);
    const crc = view.getUint32(p + 16, true);
    const compressedSize = view.getUint32(p + 20, true);
    const size = view.getUint32(p + 24, true);
    const nameLen = view.getUint16(p + 28, true);
    const extraLen = view.getUint16(p + 30, true);
    const commentLen = view.getUint16(p + 32, true);
    const external = view.getUint32(p + 38, true);
    const offset = view.getUint32(p + 42, true);
    const nameBytes = bytes.subarray(p + 46, p + 46 + nameLen);
    p += 46 + nameLen + extraLen + commentLen;
    if (p > cdOffset + cdSize)
      throw new ArchiveError('The archive is damaged (a directory record is cut off).');

    const name = decodeName(nameBytes);
    if (name === '') throw new ArchiveError('The archive has an entry without a name.');
    const escape = escapeReason(name);
    if (escape) {
      throw new ArchiveError(
        `Refused: the entry "${show(name)}" ${escape}, so it could write outside the memory folder. Nothing was imported.`,
      );
    }
    const kind = entryKind(madeBy, external, name);
    if (kind === 'other') {
      const what =
        ((external >>> 16) & S_IFMT) === S_IFLNK ? 'a symbolic link' : 'a special file (device or pipe)';
      throw new ArchiveError(
        `Refused: the entry "${show(name)}" is ${what}; links could expose or change files outside memory. Nothing was imported.`,
      );
    }
    const key = name.replace(/\/+$/, '');
    if (names.has(key)) {
      throw new ArchiveError(
        `Refused: the archive holds "${show(name)}" twice, so which one is meant is ambiguous. Nothing was imported.`,
      );
    }
    names.add(key);
    if (size > limits.maxEntryBytes) {
      throw new ArchiveError(
        `Refused: the entry "${show(name)}" declares ${size} bytes, above the ${limits.maxEntryBytes}-byte limit per entry. Nothing was imported.`,
      );
    }
    declaredTotal += size;
    if (declaredTotal > limits.maxTotalBytes) {
      throw new ArchiveError(
        `Refused: the archive would unpack to more than ${limits.maxTotalBytes} bytes. Nothing was imported.`,
      );
    }
    if (offset + 30 > cdOffset || view.getUint32(offset, true) !== LOC_SIG) {
      throw new ArchiveError(`The archive is damaged (the data of "${show(name)}" is missing).`);
    }
    const localNameLen = view.getUint16(offset + 26, true);
    const localExtraLen = view.getUint16(offset + 28, true);
    const localName = bytes.subarray(offset + 30, offset + 30 + localNameLen);
    if (Buffer.compare(localName, nameBytes) !== 0) {
      // Two different names for one entry is how some tools are tricked into writing elsewhere.
      throw new ArchiveError(
        `Refused: the entry "${show(name)}" has a different name inside its data record.`,
      );
    }
    const dataStart = offset + 30 + localNameLen + localExtraLen;
    const dataEnd = dataStart + compressedSize;
    if (dataEnd > cdOffset)
      throw new ArchiveError(`The archive is damaged (the data of "${show(name)}" is cut off).`);
    const encrypted = (flags & 1) !== 0;
    const entry = {
      name,
      isDir: kind === 'dir',
      size,
      compressedSize,
      encrypted,
      method,
      offset,
      dataStart,
      dataEnd,
      read(): Uint8Array {
        if (encrypted)
          throw new ArchiveError(`"${show(name)}" is encrypted; encrypted entries cannot be imported.`);
        const data = bytes.subarray(dataStart, dataEnd);
        let out: Uint8Array;
        if (method === 0) {
          if (compressedSize !== size) throw new ArchiveError(bombMessage(name));
          out = data;
        } else if (method === 8) {
          out = inflateLimited(data, size, name);
        } else {
          throw new ArchiveError(`"${show(name)}" uses an unsupported compression method (${method}).`);
        }
        if (out.length !== size || crc32(out) !== crc) {
          throw new ArchiveError(`The archive is damaged: "${show(name)}" does not match its checksum.`);
        }
        return out;
      },
    };
    entries.push(entry);
  }
  // Entries sharing bytes are the classic overlapping-file zip bomb: each entry's data must stand alone.
  const byOffset = [...entries].sort((a, b) => a.offset - b.offset);
  for (let i = 1; i < byOffset.length; i++) {
    const prev = byOffset[i - 1];
    const cur = byOffset[i];
    if (prev && cur && cur.offset < prev.dataEnd) {
      throw new ArchiveError(
        'Refused: entries in this archive overlap each other (a known zip-bomb construction). Nothing was imported.',
      );
    }
  }
  return entries;
}
