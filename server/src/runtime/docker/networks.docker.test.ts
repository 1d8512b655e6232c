import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type Docker from "dockerode";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { testDockerHost } from "../../test-support/docker.js";
import { Fatal, waitFor } from "../../test-support/wait.js";
import type { ProcessSpec, Supervisor, SupervisorOptions } from "../supervisor.types.js";
import { createContainerSupervisor } from "./container-supervisor.js";
import { dockerClient, type DockerEndpoint } from "./engine.js";
import { ensureProgramImage } from "./images.js";
import { LABEL, removeNetworkIfUnused, withNetwork } from "./networks.js";

/**
 * The console's user-defined network on a real dockerd: made with the first container, removed with
 * the last one, kept while any container (another console's, or one nobody labelled) is on it, never
 * removed when someone else made it, and never pulled from under a container being created.
 */
const host = testDockerHost("container networks");
const endpoint: DockerEndpoint = { name: "local", host: host ?? "" };
const docker = host ? dockerClient(endpoint) : (undefined as unknown as Docker);
const work = mkdtempSync(join(tmpdir(), "cl-docker-net-"));
const IMAGE = `cl-test/sleep:${process.pid}`;
let imageBuilt: Promise<string> | undefined;
const image = (): Promise<string> =>
  (imageBuilt ??= ensureProgramImage(docker, { tag: IMAGE, programs: [{ src: "/bin/sleep", dest: "/bin/sleep" }] }));

const supervisors: Supervisor[] = [];
let nets = 0;
/** A network name of this test alone (other test files use "chainlaunch" on the same engine). */
const netName = (): string => `cl-test-net-${process.pid}-${++nets}`;

function supervisor(consoleTag: string, name = consoleTag, opts: Partial<SupervisorOptions> = {}): Supervisor {
  const s = createContainerSupervisor({
    docker,
    endpoint,
    consoleTag,
    stateDir: join(work, name),
    stopTimeoutMs: 2000,
    minUptimeMs: 100,
    ...opts,
  });
  supervisors.push(s);
  return s;
}

const sleeper = (id: string, network: string): ProcessSpec => ({
  id,
  command: "sleep",
  args: [],
  cwd: work,
  container: { image: IMAGE, cmd: ["/bin/sleep", "3600"], env: {}, binds: [], ports: [], network, aliases: [id] },
});

async function network(name: string): Promise<Docker.NetworkInspectInfo | undefined> {
  try {
    return (await docker.getNetwork(name).inspect()) as Docker.NetworkInspectInfo;
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) return undefined;
    throw err;
  }
}

/** How many containers of the console the engine created since `since` (seconds), from its events. */
async function containersCreated(consoleTag: string, since: number): Promise<number> {
  const stream = (await docker.getEvents({
    since,
    until: Math.ceil(Date.now() / 1000),
    filters: { type: ["container"], event: ["create"], label: [`${LABEL.console}=${consoleTag}`] },
  })) as NodeJS.ReadableStream;
  let text = "";
  for await (const chunk of stream) text += String(chunk);
  return text.split("\n").filter((l) => l.trim()).length;
}

afterEach(async () => {
  for (const s of supervisors.splice(0)) {
    for (const p of s.list()) if (p.status !== "STOPPED") await s.stop(p.id).catch(() => undefined);
    s.close();
  }
});

afterAll(async () => {
  if (host)
    await docker
      .getImage(IMAGE)
      .remove({ force: true })
      .catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
});

describe.skipIf(!host)("the console's Docker network", () => {
  it("is made with the first container and removed with the last one, of whichever console", async () => {
    await image();
    const net = netName();
    const a = supervisor("consolea");
    const b = supervisor("consoleb");
    expect(await network(net)).toBeUndefined();
    expect((await a.start(sleeper("n1", net))).status).toBe("RUNNING");
    const made = await network(net);
    expect(made?.Labels).toMatchObject({ [LABEL.managed]: "true", [LABEL.console]: "consolea" });
    expect((await a.start(sleeper("n2", net))).status).toBe("RUNNING");
    expect((await b.start(sleeper("n3", net))).status).toBe("RUNNING");

    await a.stop("n1");
    expect((await network(net))?.Id).toBe(made?.Id);
    // The console that made it has nothing left there; another console's container keeps it.
    await a.stop("n2");
    expect((await network(net))?.Id).toBe(made?.Id);
    // A container nobody labelled, only created, keeps it too.
    const stranger = await docker.createContainer({
      Image: IMAGE,
      Cmd: ["/bin/sleep", "3600"],
      HostConfig: { NetworkMode: net },
    });
    await b.stop("n3");
    expect((await network(net))?.Id).toBe(made?.Id);
    await stranger.remove({ force: true });
    // The next container of the console that made it, and its stop, take it away at last.
    expect((await b.start(sleeper("n3", net))).status).toBe("RUNNING");
    await b.stop("n3");
    expect(await network(net)).toBeUndefined();
    expect(await docker.listContainers({ all: true, filters: JSON.stringify({ network: [net] }) })).toEqual([]);
  });

  it("never removes a network it did not make", async () => {
    await image();
    const net = netName();
    const theirs = await docker.createNetwork({ Name: net, Driver: "bridge", Labels: { owner: "someone" } });
    try {
      const s = supervisor("consolec");
      expect((await s.start(sleeper("m1", net))).status).toBe("RUNNING");
      await s.stop("m1");
      expect((await network(net))?.Id).toBe(theirs.id);
      expect((await network(net))?.Labels).toEqual({ owner: "someone" });
    } finally {
      await theirs.remove();
    }
  });

  it("never removes the network under a container this process is creating", async () => {
    await image();
    const net = netName();
    const since = Math.floor(Date.now() / 1000) - 1;
    // Two supervisors of one console on one engine, as the nodes and chaincode modules keep, and
    // the cleanup another module's stop runs, over and over, on the same queue.
    const nodes = supervisor("consoled", "nodes");
    const chaincode = supervisor("consoled", "chaincode");
    let cleaning = true;
    const cleanup = (async () => {
      while (cleaning) {
        await withNetwork(endpoint.host, net, () => removeNetworkIfUnused(docker, net));
        await sleep(5);
      }
    })();
    try {
      for (let round = 0; round < 6; round++) {
        const [older, newer] = round % 2 ? [nodes, chaincode] : [chaincode, nodes];
        expect((await older.start(sleeper(`r${round}-old`, net))).status).toBe("RUNNING");
        const [, started] = await Promise.all([
          older.stop(`r${round}-old`),
          newer.start(sleeper(`r${round}-new`, net)),
        ]);
        expect(started.status, started.errorMessage).toBe("RUNNING");
        expect(await network(net)).toBeDefined();
        await newer.stop(`r${round}-new`);
        expect(await network(net)).toBeUndefined();
      }
    } finally {
      cleaning = false;
      await cleanup;
    }
    // One container made per start: none had to be made again because its network went away.
    expect(await containersCreated("consoled", since)).toBe(12);
  });

  it("makes the network again when it was removed under a stopped container", async () => {
    await image();
    const net = netName();
    let crashed: () => void = () => undefined;
    const crash = new Promise<void>((resolve) => (crashed = resolve));
    const s = supervisor("consolee", "consolee", {
      restart: { baseDelayMs: 1500 },
      onEvent: (ev) => ev.type === "crash" && crashed(),
    });
    const first = await s.start(sleeper("k1", net));
    expect(first.status).toBe("RUNNING");
    await docker.getContainer(first.container!.id).kill();
    await crash;
    // A stopped container is no endpoint: the engine lets anyone remove the network now (docker
    // network prune, or another console whose check ran before this container was made). The
    // restart must not fail on it.
    await docker.getNetwork(net).remove();
    const back = await waitFor(
      "the container started again",
      async () => {
        const now = s.get("k1");
        if (now?.status === "ERROR") throw new Fatal(now.errorMessage);
        return now?.status === "RUNNING" ? now : undefined;
      },
      20_000,
    );
    expect(back?.container?.name).toBe(first.container!.name);
    expect(await network(net)).toBeDefined();
    await s.stop("k1");
    expect(await network(net)).toBeUndefined();
  });
});
