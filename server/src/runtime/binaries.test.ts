import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import {
  createFabricBinaryResolver,
  defaultFabricCacheDir,
  downloadFabricRelease,
  execVersionProbe,
  FABRIC_BINARIES,
  fabricReleaseUrl,
  type FabricDownloader,
} from "./binaries.js";
import { RuntimeError } from "./errors.js";

const root = mkdtempSync(join(tmpdir(), "cl-bin-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => {
  const d = join(root, String(n++));
  mkdirSync(d, { recursive: true });
  return d;
};

/** Writes fake binaries; `peer version` prints the given version. */
function fakeBins(dir: string, version: string, names: readonly string[] = FABRIC_BINARIES): void {
  mkdirSync(dir, { recursive: true });
  for (const name of names) {
    const p = join(dir, name);
    writeFileSync(p, `#!/bin/sh\necho "${name}:"\necho " Version: ${version}"\n`);
    chmodSync(p, 0o755);
  }
}

const noProbe = async (): Promise<string | null> => null;

describe("createFabricBinaryResolver", () => {
  it("prefers the configured dir ({version} placeholder) over the cache", async () => {
    const base = fresh();
    fakeBins(join(base, "opt", "3.1.5"), "3.1.5");
    fakeBins(join(base, "cache", "3.1.5", "bin"), "3.1.5");
    const r = createFabricBinaryResolver({
      configuredDir: join(base, "opt", "{version}"),
      cacheDir: join(base, "cache"),
      downloader: null,
      versionProbe: noProbe,
    });
    const got = await r.resolve("3.1.5");
    expect(got.source).toBe("configured");
    expect(got.paths.peer).toBe(join(base, "opt", "3.1.5", "peer"));
    expect(Object.keys(got.paths).sort()).toEqual([...FABRIC_BINARIES].sort());
  });

  it("uses a configured dir without placeholder only when its peer reports the version", async () => {
    const base = fresh();
    fakeBins(join(base, "opt"), "2.5.16");
    fakeBins(join(base, "cache", "3.1.5", "bin"), "3.1.5");
    const r = createFabricBinaryResolver({
      configuredDir: join(base, "opt"),
      cacheDir: join(base, "cache"),
      downloader: null,
    });
    expect((await r.resolve("2.5.16", ["peer"])).source).toBe("configured");
    const other = await r.resolve("3.1.5");
    expect(other.source).toBe("cache");
    expect(other.dir).toBe(join(base, "cache", "3.1.5", "bin"));
  });

  it("falls back to the cache when the configured dir lacks a binary", async () => {
    const base = fresh();
    fakeBins(join(base, "opt", "3.1.5"), "3.1.5", ["peer"]);
    fakeBins(join(base, "cache", "3.1.5", "bin"), "3.1.5");
    const downloader = vi.fn<FabricDownloader>();
    const r = createFabricBinaryResolver({
      configuredDir: join(base, "opt", "{version}"),
      cacheDir: join(base, "cache"),
      downloader,
    });
    expect((await r.resolve("3.1.5", ["peer"])).source).toBe("configured");
    expect((await r.resolve("3.1.5", ["peer", "orderer"])).source).toBe("cache");
    expect(downloader).not.toHaveBeenCalled();
  });

  it("downloads into the cache when nothing local fits, once for concurrent callers", async () => {
    const base = fresh();
    const downloader = vi.fn<FabricDownloader>(async ({ version, destDir }) => {
      await new Promise((r) => setTimeout(r, 50));
      fakeBins(join(destDir, "bin"), version);
    });
    const r = createFabricBinaryResolver({ cacheDir: join(base, "cache"), downloader, versionProbe: noProbe });
    const [a, b] = await Promise.all([r.resolve("2.5.16"), r.resolve("2.5.16")]);
    expect(a.source).toBe("download");
    expect(b.dir).toBe(join(base, "cache", "2.5.16", "bin"));
    expect(downloader).toHaveBeenCalledTimes(1);
    expect(downloader).toHaveBeenCalledWith({ version: "2.5.16", destDir: join(base, "cache", "2.5.16") });
    // Now it is in the cache: no second download.
    expect((await r.resolve("2.5.16")).source).toBe("cache");
    expect(downloader).toHaveBeenCalledTimes(1);
  });

  it("ends with an error that names the places searched, the download failure and how to install", async () => {
    const base = fresh();
    const r = createFabricBinaryResolver({
      configuredDir: join(base, "nowhere"),
      cacheDir: join(base, "cache"),
      downloader: async () => {
        throw new Error("getaddrinfo ENOTFOUND github.com");
      },
    });
    const err = await r.resolve("3.1.5").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RuntimeError);
    const re = err as RuntimeError;
    expect(re.code).toBe("FABRIC_BINARY_NOT_FOUND");
    expect(re.message).toContain("scripts/fabric-build.sh 3.1.5");
    expect(re.message).toContain(join(base, "cache", "3.1.5", "bin"));
    expect(re.message).toContain("ENOTFOUND");
    expect(re.details).toMatchObject({ version: "3.1.5", downloadError: "getaddrinfo ENOTFOUND github.com" });
  });

  it("rejects version strings that are not x.y.z before touching the file system", async () => {
    const r = createFabricBinaryResolver({ cacheDir: fresh(), downloader: null });
    await expect(r.resolve("../../etc")).rejects.toMatchObject({ code: "FABRIC_VERSION_UNSUPPORTED" });
    expect(await r.findLocal("3.1.5")).toBeNull();
  });
});

describe("release download", () => {
  it("unpacks bin/ from a release tarball into the cache with tar", async () => {
    const base = fresh();
    fakeBins(join(base, "release", "bin"), "2.5.16", ["peer", "orderer"]);
    const { execFileSync } = await import("node:child_process");
    execFileSync("tar", ["-czf", join(base, "rel.tar.gz"), "-C", join(base, "release"), "bin"]);
    const { readFileSync } = await import("node:fs");
    const bytes = readFileSync(join(base, "rel.tar.gz"));
    const fetchImpl = (async () => new Response(bytes, { status: 200 })) as unknown as typeof fetch;
    await downloadFabricRelease({ version: "2.5.16", destDir: join(base, "cache", "2.5.16") }, { fetchImpl });
    expect(await execVersionProbe(join(base, "cache", "2.5.16", "bin", "peer"))).toBe("2.5.16");
  });

  it("fails with the HTTP status when the release is not there", async () => {
    const fetchImpl = (async () => new Response("nope", { status: 404 })) as unknown as typeof fetch;
    await expect(downloadFabricRelease({ version: "3.1.5", destDir: fresh() }, { fetchImpl })).rejects.toThrow(/404/);
  });

  it("names the official asset for this platform and the cache dir like the build script", () => {
    expect(fabricReleaseUrl("3.1.5", "linux", "x64")).toBe(
      "https://github.com/hyperledger/fabric/releases/download/v3.1.5/hyperledger-fabric-linux-amd64-3.1.5.tar.gz",
    );
    expect(defaultFabricCacheDir({ HOME: "/home/u" })).toBe("/home/u/.cache/chainlaunch/fabric");
    expect(defaultFabricCacheDir({ CHAINLAUNCH_FABRIC_CACHE: "/c" })).toBe("/c");
  });
});
