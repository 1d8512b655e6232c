import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { access, copyFile, chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { promisify } from "node:util";
import type Docker from "dockerode";
import { RuntimeError } from "../errors.js";

const run = promisify(execFile);

/**
 * The repositories (no tag) of the images container nodes run, unless CHAINLAUNCH_FABRIC_IMAGE /
 * CHAINLAUNCH_BESU_IMAGE name others. The tag is always the node's version.
 */
export const DEFAULT_IMAGE_REPOSITORIES = { fabric: "chainlaunch/fabric", besu: "hyperledger/besu" } as const;

/**
 * Makes sure the engine has `image`: present already, or pulled from its registry. Nothing here can
 * reach Docker Hub, so a missing image that cannot be pulled is a clear error naming it.
 */
export async function ensureImage(docker: Docker, image: string): Promise<void> {
  try {
    await docker.getImage(image).inspect();
    return;
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode !== 404) throw err;
  }
  try {
    const stream = await docker.pull(image);
    await new Promise<void>((resolve, reject) => {
      docker.modem.followProgress(stream, (err: Error | null, out: { error?: string }[]) => {
        const failed = err ?? out.find((o) => o.error)?.error;
        if (failed) reject(failed instanceof Error ? failed : new Error(failed));
        else resolve();
      });
    });
  } catch (err) {
    const registry = registryOf(image);
    throw new RuntimeError(
      "DOCKER_IMAGE_MISSING",
      `image "${image}" is not on the engine and could not be pulled (${(err as Error).message.split("\n")[0]}); ${
        registry ? `push it to ${registry} or build it on the engine` : "build it there or configure a registry"
      }`,
      { image },
    );
  }
}

/** The registry host an image name starts with (`host[:port]/…`, `localhost/…`), else undefined (Docker Hub). */
export function registryOf(image: string): string | undefined {
  const slash = image.indexOf("/");
  if (slash < 0) return undefined;
  const first = image.slice(0, slash);
  return /[.:]/.test(first) || first === "localhost" ? first : undefined;
}

async function listFiles(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      out.push(relative(base, full));
      out.push(...(await listFiles(full, base)));
    } else out.push(relative(base, full));
  }
  return out;
}

/** Builds `tag` from a folder holding a Dockerfile; the build's own error is the message. */
export async function buildImage(
  docker: Docker,
  contextDir: string,
  tag: string,
  labels: Record<string, string> = {},
): Promise<void> {
  const stream = await docker.buildImage(
    { context: contextDir, src: await listFiles(contextDir) },
    { t: tag, labels: JSON.stringify(labels) as unknown as Record<string, string>, rm: true, forcerm: true },
  );
  await new Promise<void>((resolve, reject) => {
    docker.modem.followProgress(stream, (err: Error | null, out: { error?: string }[]) => {
      const failed = err ?? out.find((o) => o.error)?.error;
      if (failed) reject(new RuntimeError("DOCKER_IMAGE_MISSING", `building ${tag} failed: ${String(failed)}`));
      else resolve();
    });
  });
}

/** The shared libraries a dynamically linked program needs (empty for a static one). */
async function sharedLibraries(program: string): Promise<string[]> {
  const { stdout } = await run("ldd", [program]).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? "" }));
  const libs = new Set<string>();
  for (const line of stdout.split("\n")) {
    const m = /=>\s*(\/\S+)|^\s*(\/\S+)\s+\(/.exec(line);
    const lib = m?.[1] ?? m?.[2];
    if (lib) libs.add(lib);
  }
  return [...libs];
}

/** Host programs the Fabric images carry for the peer's external builder scripts (POSIX sh). */
export const BUILDER_TOOLS = ["sh", "cp", "mkdir", "tr", "grep", "cat", "rm", "ls"];

async function which(name: string): Promise<string> {
  for (const dir of ["/usr/bin", "/bin", "/usr/sbin", "/sbin"]) {
    const p = join(dir, name);
    try {
      await access(p, constants.X_OK);
      return p;
    } catch {
      // next
    }
  }
  throw new RuntimeError("DOCKER_IMAGE_MISSING", `no ${name} on this host to put in the image`);
}

const digests = new Map<string, string>();

/**
 * An image built here with no registry: FROM scratch, the given programs (with the shared libraries
 * they link), /tmp (1777), a minimal /etc. Tagged `tag`, and rebuilt only when the programs' bytes
 * change (a label carries their hash).
 */
export async function ensureProgramImage(
  docker: Docker,
  p: {
    tag: string;
    programs: { src: string; dest: string }[];
    /** Folders copied as they are (a Node.js chaincode with its node_modules); the image is then always rebuilt. */
    dirs?: { src: string; dest: string }[];
    labels?: Record<string, string>;
  },
): Promise<string> {
  // Hashing ~150 MB of Fabric binaries for every node would cost seconds of CPU: the digest is
  // remembered while the files keep their size and mtime.
  const stamp = JSON.stringify(
    await Promise.all(
      p.programs.map(async (prog) => [
        prog.src,
        prog.dest,
        (await stat(prog.src)).size,
        (await stat(prog.src)).mtimeMs,
      ]),
    ),
  );
  let digest = p.dirs?.length ? `${Date.now()}` : digests.get(stamp);
  if (!digest) {
    const hash = createHash("sha256");
    for (const prog of p.programs) hash.update(prog.dest).update(await readFile(prog.src));
    digest = hash.digest("hex").slice(0, 16);
    digests.set(stamp, digest);
  }
  try {
    const info = await docker.getImage(p.tag).inspect();
    if (info.Config?.Labels?.["dev.chainlaunch.binaries"] === digest) return p.tag;
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode !== 404) throw err;
  }
  const ctx = await mkdtemp(join(tmpdir(), "cl-image-"));
  try {
    const root = join(ctx, "rootfs");
    await mkdir(join(root, "tmp"), { recursive: true });
    await chmod(join(root, "tmp"), 0o1777);
    await mkdir(join(root, "etc"), { recursive: true });
    await writeFile(join(root, "etc/passwd"), "root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n");
    await writeFile(join(root, "etc/group"), "root:x:0:\nnogroup:x:65534:\n");
    await writeFile(join(root, "etc/nsswitch.conf"), "hosts: files dns\n");
    const put = async (src: string, dest: string): Promise<void> => {
      await mkdir(join(root, dirname(dest)), { recursive: true });
      await copyFile(src, join(root, dest));
      await chmod(join(root, dest), 0o755);
    };
    const libs = new Set<string>();
    for (const prog of p.programs) {
      await put(prog.src, prog.dest.replace(/^\//, ""));
      for (const lib of await sharedLibraries(prog.src)) libs.add(lib);
    }
    for (const lib of libs) await put(lib, lib.slice(1));
    for (const d of p.dirs ?? []) {
      await mkdir(dirname(join(root, d.dest)), { recursive: true });
      await cp(d.src, join(root, d.dest), { recursive: true, verbatimSymlinks: true });
    }
    await writeFile(
      join(ctx, "Dockerfile"),
      ["FROM scratch", "COPY rootfs/ /", "ENV PATH=/usr/local/bin:/bin", "WORKDIR /tmp", ""].join("\n"),
    );
    await buildImage(docker, ctx, p.tag, { ...p.labels, "dev.chainlaunch.binaries": digest });
    return p.tag;
  } finally {
    await rm(ctx, { recursive: true, force: true });
  }
}

/**
 * The Fabric image the console runs peers and orderers from: the cached Fabric binaries and the few
 * host programs that the chaincode builder scripts use. Tagged `<repository>:<version>`, the
 * repository being `chainlaunch/fabric` unless one is given (CHAINLAUNCH_FABRIC_IMAGE).
 */
export async function ensureFabricImage(
  docker: Docker,
  p: { version: string; binDir: string; repository?: string },
): Promise<string> {
  const programs = ["peer", "orderer", "osnadmin"].map((b) => ({
    src: join(p.binDir, b),
    dest: `/usr/local/bin/${b}`,
  }));
  for (const tool of BUILDER_TOOLS) {
    const path = await which(tool);
    programs.push({ src: path, dest: `/bin/${basename(path)}` });
  }
  return ensureProgramImage(docker, {
    tag: `${p.repository ?? DEFAULT_IMAGE_REPOSITORIES.fabric}:${p.version}`,
    programs,
    labels: { "dev.chainlaunch.fabric-version": p.version },
  });
}
