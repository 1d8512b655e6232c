import type Docker from "dockerode";

/** Labels every container and network of the console carries: adoption finds them, delete leaves none. */
export const LABEL = {
  managed: "dev.chainlaunch.managed",
  console: "dev.chainlaunch.console",
  id: "dev.chainlaunch.id",
  spec: "dev.chainlaunch.spec",
} as const;

/** Networks Docker makes itself: the console neither creates nor removes them. */
const PREDEFINED = new Set(["host", "bridge", "none", "default"]);

/**
 * One queue per engine and network name for the whole process: the nodes, chaincode and metrics
 * modules each keep a container supervisor on the same engine, and a network one of them removes
 * must not vanish under a container another one is creating.
 */
const queues = new Map<string, Promise<unknown>>();

const statusOf = (err: unknown): number | undefined => (err as { statusCode?: number }).statusCode;

/**
 * Runs `fn` alone for the network `name` of the engine at `engineHost` (in this process). Creating
 * the network and a container on it happen in one such call, and so do the check that nothing is
 * attached and the removal; so a container is never created on a network that is being removed.
 */
export function withNetwork<T>(engineHost: string, name: string, fn: () => Promise<T>): Promise<T> {
  const key = `${engineHost}\n${name}`;
  const next = (queues.get(key) ?? Promise.resolve()).then(fn, fn);
  const tail = next.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return next;
}

async function inspectNetwork(docker: Docker, name: string): Promise<Docker.NetworkInspectInfo | undefined> {
  try {
    const info = (await docker.getNetwork(name).inspect()) as Docker.NetworkInspectInfo;
    // The engine also resolves a prefix of an id: only the network of that exact name counts.
    return info.Name === name ? info : undefined;
  } catch (err) {
    if (statusOf(err) === 404) return undefined;
    throw err;
  }
}

/**
 * Makes the user-defined bridge network `name` when the engine has none, labelled as the console's
 * (`managed`, and the console's tag for whoever looks). Another console on the engine making it at
 * the same moment is fine (409: it exists).
 */
export async function ensureNetwork(docker: Docker, name: string, consoleTag: string): Promise<void> {
  if (PREDEFINED.has(name) || (await inspectNetwork(docker, name))) return;
  await docker
    .createNetwork({
      Name: name,
      Driver: "bridge",
      CheckDuplicate: true,
      Labels: { [LABEL.managed]: "true", [LABEL.console]: consoleTag },
    })
    .catch((err: unknown) => {
      if (statusOf(err) !== 409) throw err;
    });
}

/**
 * Removes the network `name` when a ChainLaunch console made it (any console sharing the engine:
 * whichever removes the last container cleans up, or a network made by a console whose containers
 * left first would stay forever) and no container at all is on it: running, stopped or only
 * created, of this console, another one or none. A network someone else made is never touched. The
 * engine refusing because a container joined meanwhile (another process) or the network being gone
 * already is not an error. True when this call removed it.
 */
export async function removeNetworkIfUnused(docker: Docker, name: string): Promise<boolean> {
  if (PREDEFINED.has(name)) return false;
  const info = await inspectNetwork(docker, name);
  if (!info || info.Labels?.[LABEL.managed] !== "true") return false;
  // By name, not id: a container that is only created has no network id yet, but its name is there.
  const attached = await docker.listContainers({ all: true, filters: JSON.stringify({ network: [name] }) });
  if (attached.length > 0) return false;
  try {
    // By id: a network of the same name made again since the check is someone else's to keep.
    await docker.getNetwork(info.Id).remove();
    return true;
  } catch (err) {
    // 403 (20.10) or 409: "has active endpoints"; 404: gone already.
    const code = statusOf(err);
    if (code === 403 || code === 404 || code === 409) return false;
    throw err;
  }
}

/** The network steps of one container supervisor (one console, one engine). */
export function consoleNetworks(
  docker: Docker,
  engineHost: string,
  consoleTag: string,
): {
  /** Runs `fn` (a container's creation) on the network's queue, the network made first when missing. */
  on<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** After a container went: its networks go too when a console made them and nothing is on them. */
  release(names: Iterable<string>): Promise<void>;
} {
  return {
    on: (name, fn) =>
      withNetwork(engineHost, name, async () => {
        await ensureNetwork(docker, name, consoleTag);
        return fn();
      }),
    async release(names) {
      for (const name of new Set(names)) {
        // Never fails a stop: a network left behind is only untidy.
        await withNetwork(engineHost, name, () => removeNetworkIfUnused(docker, name)).catch(() => false);
      }
    },
  };
}

/** True for the engine's answer to starting a container whose network is gone. */
export function isNetworkMissing(err: unknown): boolean {
  return statusOf(err) === 404 && /network \S+ not found/i.test(String((err as Error).message));
}
