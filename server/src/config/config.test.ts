import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.js";

describe("loadConfig", () => {
  it("defaults to port 8100 and ~/.chainlaunch with SQLite", () => {
    const c = loadConfig({});
    expect(c.port).toBe(8100);
    expect(c.dataDir).toBe(join(homedir(), ".chainlaunch"));
    expect(c.databaseUrl).toBeUndefined();
    expect(c.demoMode).toBe(false);
  });

  it("reads overrides", () => {
    const c = loadConfig({
      PORT: "9000",
      CHAINLAUNCH_DATA: "/tmp/x",
      DATABASE_URL: "postgres://u@h/db",
      CHAINLAUNCH_DEMO: "true",
    });
    expect(c).toMatchObject({ port: 9000, dataDir: "/tmp/x", databaseUrl: "postgres://u@h/db", demoMode: true });
  });

  it("lists every problem at once", () => {
    try {
      loadConfig({
        PORT: "nope",
        DATABASE_URL: "mysql://x",
        CHAINLAUNCH_ADMIN_PASSWORD: "short",
        CHAINLAUNCH_MASTER_KEY: "abc",
      });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems.join("\n");
      expect(problems).toMatch(/PORT/);
      expect(problems).toMatch(/DATABASE_URL/);
      expect(problems).toMatch(/CHAINLAUNCH_ADMIN_PASSWORD/);
      expect(problems).toMatch(/CHAINLAUNCH_MASTER_KEY/);
    }
  });

  it("runs user code sandboxed unless told otherwise, and names a bad mode or user", () => {
    expect(loadConfig({})).toMatchObject({ sandbox: "auto", sandboxUser: "chainlaunch-sandbox" });
    expect(loadConfig({ CHAINLAUNCH_SANDBOX: "off", CHAINLAUNCH_SANDBOX_CACHE: "/tmp/c" })).toMatchObject({
      sandbox: "off",
      sandboxCacheDir: "/tmp/c",
    });
    try {
      loadConfig({ CHAINLAUNCH_SANDBOX: "docker", CHAINLAUNCH_SANDBOX_USER: "Root;x" });
      expect.unreachable();
    } catch (err) {
      const problems = (err as ConfigError).problems.join("\n");
      expect(problems).toMatch(/CHAINLAUNCH_SANDBOX:/);
      expect(problems).toMatch(/CHAINLAUNCH_SANDBOX_USER: must be a system user name/);
    }
  });

  it("names the images of container nodes by repository, and refuses a name Docker would refuse", () => {
    expect(loadConfig({})).toMatchObject({ fabricImage: "chainlaunch/fabric", besuImage: "hyperledger/besu" });
    for (const name of [
      "fabric",
      "acme/fabric-peer",
      "registry.example.com:5000/team/fabric",
      "localhost:5000/fabric",
      "Registry.Example.com/besu",
      "a__b/c--d/e.f_g",
    ]) {
      expect(loadConfig({ CHAINLAUNCH_FABRIC_IMAGE: name, CHAINLAUNCH_BESU_IMAGE: name })).toMatchObject({
        fabricImage: name,
        besuImage: name,
      });
    }
    for (const bad of [
      "",
      "chainlaunch/fabric:3.1.0",
      "chainlaunch/fabric@sha256:abc",
      "Acme/Fabric",
      "acme//fabric",
      "/fabric",
      "fabric/",
      "-fabric",
      "acme/fabric_",
      "acme/fa___bric",
      "host:port/fabric",
      "acme fabric",
      `acme/${"f".repeat(260)}`,
    ]) {
      try {
        loadConfig({ CHAINLAUNCH_FABRIC_IMAGE: bad, CHAINLAUNCH_BESU_IMAGE: bad });
        expect.unreachable(`"${bad}" was accepted`);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        const problems = (err as ConfigError).problems;
        expect(problems).toHaveLength(2);
        expect(problems[0]).toMatch(/^CHAINLAUNCH_FABRIC_IMAGE: must be /);
        expect(problems[1]).toMatch(/^CHAINLAUNCH_BESU_IMAGE: must be /);
      }
    }
    try {
      loadConfig({ CHAINLAUNCH_BESU_IMAGE: "hyperledger/besu:24.12.2" });
      expect.unreachable();
    } catch (err) {
      expect((err as ConfigError).message).toContain(
        "CHAINLAUNCH_BESU_IMAGE: must be an image repository without a tag, like hyperledger/besu",
      );
    }
  });
});
