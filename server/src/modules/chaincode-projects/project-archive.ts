import { constants } from "node:fs";
import { lstat, open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { crc32, deflateRawSync } from "node:zlib";
import { InputError } from "../../http/errors.js";

/** Folders a download leaves out: installed packages, build output, VCS data, editor settings. */
export const ARCHIVE_SKIPPED = new Set(["node_modules", ".git", "dist", "bin", "build", ".vscode", ".idea"]);
/** Zip without ZIP64: entries and the archive stay under 4 GiB, and at most 65535 entries. */
const MAX_ENTRIES = 65_535;
const MAX_TOTAL = 0xffff_ffff;
const MAX_FILE = 256 * 1024 * 1024;

interface Entry {
  name: string;
  abs: string;
  size: number;
  mode: number;
  mtime: Date;
  /** The file the walk saw: what is read must be this very file (a folder swapped for a link since is not followed). */
  dev: number;
  ino: number;
}

/**
 * Regular files under `root`, relative names with `/`, sorted. Symlinks are never followed or stored
 * (one could point at the master key); FIFOs, sockets and devices are left out too.
 */
export async function archiveEntries(root: string, skip: ReadonlySet<string> = ARCHIVE_SKIPPED): Promise<Entry[]> {
  const out: Entry[] = [];
  async function walk(abs: string, rel: string, depth: number): Promise<void> {
    if (depth > 32) return;
    const names = (await readdir(abs)).sort();
    for (const name of names) {
      const childAbs = join(abs, name);
      const childRel = rel ? `${rel}/${name}` : name;
      const st = await lstat(childAbs).catch(() => undefined);
      if (!st) continue;
      if (st.isDirectory()) {
        if (!skip.has(name)) await walk(childAbs, childRel, depth + 1);
      } else if (st.isFile()) {
        if (out.length >= MAX_ENTRIES) throw new InputError(`id: the project has more than ${MAX_ENTRIES} files`);
        out.push({
          name: childRel,
          abs: childAbs,
          size: st.size,
          mode: st.mode,
          mtime: st.mtime,
          dev: st.dev,
          ino: st.ino,
        });
      }
    }
  }
  await walk(root, "", 0);
  return out;
}

/** MS-DOS date and time (what zip stores), local fields of `d`; 1980 at the earliest. */
function dosTime(d: Date): { time: number; date: number } {
  const y = Math.max(1980, d.getFullYear());
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((y - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/**
 * Reads the walk's file through a handle opened without following a symlink (O_NOFOLLOW) and without
 * waiting on a FIFO (O_NONBLOCK) swapped in since the walk; undefined when it is no longer a file.
 */
async function readRegular(e: Entry): Promise<Buffer | undefined> {
  const fh = await open(e.abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined);
  if (!fh) return undefined;
  try {
    const st = await fh.stat();
    // Another file than the walk's (a parent folder replaced by a symlink meanwhile): not ours to read.
    if (!st.isFile() || st.dev !== e.dev || st.ino !== e.ino) return undefined;
    const len = st.size;
    if (len > MAX_FILE) throw new InputError(`id: a file of the project is larger than ${MAX_FILE} bytes`);
    const buf = Buffer.alloc(len);
    let off = 0;
    while (off < len) {
      const { bytesRead } = await fh.read(buf, off, len - off, off);
      if (bytesRead === 0) break;
      off += bytesRead;
    }
    return buf.subarray(0, off);
  } finally {
    await fh.close();
  }
}

/**
 * A zip of `entries` (deflated, or stored when that is not smaller), produced one file at a time so
 * a large project is never held whole in memory. Unix modes go in the external attributes, so
 * executables stay executable when unzipped.
 */
export function zipStream(entries: Entry[]): Readable {
  async function* parts(): AsyncGenerator<Buffer> {
    const central: Buffer[] = [];
    let offset = 0;
    for (const e of entries) {
      // A link or FIFO swapped in since the walk is skipped, not followed.
      const data = await readRegular(e);
      if (!data) continue;
      const crc = crc32(data);
      const deflated = deflateRawSync(data);
      const stored = deflated.length >= data.length;
      const body = stored ? data : deflated;
      const name = Buffer.from(e.name, "utf8");
      const { time, date } = dosTime(e.mtime);
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4); // version needed
      local.writeUInt16LE(0x0800, 6); // UTF-8 names
      local.writeUInt16LE(stored ? 0 : 8, 8);
      local.writeUInt16LE(time, 10);
      local.writeUInt16LE(date, 12);
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(body.length, 18);
      local.writeUInt32LE(data.length, 22);
      local.writeUInt16LE(name.length, 26);
      local.writeUInt16LE(0, 28);
      const cd = Buffer.alloc(46);
      cd.writeUInt32LE(0x02014b50, 0);
      cd.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix
      cd.writeUInt16LE(20, 6);
      cd.writeUInt16LE(0x0800, 8);
      cd.writeUInt16LE(stored ? 0 : 8, 10);
      cd.writeUInt16LE(time, 12);
      cd.writeUInt16LE(date, 14);
      cd.writeUInt32LE(crc, 16);
      cd.writeUInt32LE(body.length, 20);
      cd.writeUInt32LE(data.length, 24);
      cd.writeUInt16LE(name.length, 28);
      cd.writeUInt32LE(((0o100000 | (e.mode & 0o777)) << 16) >>> 0, 38);
      cd.writeUInt32LE(offset, 42);
      central.push(cd, name);
      if (offset + local.length + name.length + body.length > MAX_TOTAL) {
        throw new InputError("id: the project is larger than a zip without ZIP64 holds (4 GiB)");
      }
      yield Buffer.concat([local, name]);
      yield body;
      offset += local.length + name.length + body.length;
    }
    const dir = Buffer.concat(central);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(central.length / 2, 8);
    end.writeUInt16LE(central.length / 2, 10);
    end.writeUInt32LE(dir.length, 12);
    end.writeUInt32LE(offset, 16);
    yield dir;
    yield end;
  }
  return Readable.from(parts(), { objectMode: false });
}
