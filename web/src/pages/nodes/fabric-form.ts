import type { CreateNodeBody, FabricNodeDefaults, NodeInfo, UpdateNodeBody } from "@/api/client";
import type { DockerEngine } from "@/data/docker-engines/types";

export type FabricKind = "peer" | "orderer";

/** How the console runs a Fabric node: a supervised process (service) or a container (docker). */
export type FabricRuntime = "service" | "docker";

/** The runtime choices as the form and the node page name them. */
export const FABRIC_RUNTIMES: readonly { value: FabricRuntime; label: string; hint: string }[] = [
  { value: "service", label: "Process", hint: "A process the console starts and supervises on this machine." },
  {
    value: "docker",
    label: "Docker container",
    hint: "A container on the console's Docker engine. Other nodes reach it at this machine's network address.",
  },
];

/** "Process" or "Docker container" for a node's `mode`; an unknown mode is shown as it is. */
export function runtimeLabel(mode: string): string {
  return FABRIC_RUNTIMES.find((r) => r.value === mode)?.label ?? mode;
}

/** The Fabric node form, as its inputs hold it. */
export interface FabricFormValues {
  kind: FabricKind;
  /** Fixed once the node exists (the server can't move a node between runtimes). */
  runtime: FabricRuntime;
  /** The Docker engine's name, sent only with runtime docker; empty until the engines load. */
  dockerEngine: string;
  name: string;
  organizationId: string;
  listenAddress: string;
  chaincodeAddress: string;
  operationsListenAddress: string;
  adminAddress: string;
  externalEndpoint: string;
  /** Comma or whitespace separated. */
  domainNames: string;
  version: string;
}

export const FABRIC_FORM_EMPTY: FabricFormValues = {
  kind: "peer",
  runtime: "service",
  dockerEngine: "",
  name: "",
  organizationId: "",
  listenAddress: "",
  chaincodeAddress: "",
  operationsListenAddress: "",
  adminAddress: "",
  externalEndpoint: "",
  domainNames: "",
  version: "",
};

/** The engine a new container node goes on by default: "local" when the console has one, else the first. */
export function defaultEngineName(engines: readonly DockerEngine[]): string {
  return engines.find((e) => e.name === "local")?.name ?? engines[0]?.name ?? "";
}

/** An engine as the Engine select names it: "rack-b", or "rack-b (down)" when it did not answer. */
export function engineLabel(e: DockerEngine): string {
  return e.status === "down" ? `${e.name} (down)` : e.name;
}

/** host:port, with host a name, IPv4 or [IPv6]. */
export const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

export function validHostPort(v: string): boolean {
  const m = HOST_PORT.exec(v.trim());
  return Boolean(m && Number(m[2]) >= 1 && Number(m[2]) <= 65535);
}

export const NODE_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]*$/;

/** The form with the server's proposed addresses filled in; keeps what the user typed elsewhere. */
export function withDefaults(v: FabricFormValues, d: FabricNodeDefaults): FabricFormValues {
  return {
    ...v,
    listenAddress: d.listenAddress,
    chaincodeAddress: d.chaincodeAddress,
    operationsListenAddress: d.operationsListenAddress,
    adminAddress: d.adminAddress,
    externalEndpoint: d.externalEndpoint,
  };
}

export function splitList(s: string): string[] {
  return s
    .split(/[\s,]+/)
    .map((x) => x.trim())
    .filter(Boolean);
}

/** A suggested node name, e.g. "peer0-org1" from Org1MSP. */
export function suggestName(kind: FabricKind, mspId: string, index = 0): string {
  const org =
    mspId
      .replace(/MSP$/i, "")
      .toLowerCase()
      .replace(/[^a-z0-9.-]+/g, "-") || "org";
  return `${kind}${index}-${org}`;
}

/** POST /nodes body. */
export function toCreateFabricBody(v: FabricFormValues, mspId: string): CreateNodeBody {
  const common = {
    organizationId: Number(v.organizationId),
    mspId,
    listenAddress: v.listenAddress.trim(),
    operationsListenAddress: v.operationsListenAddress.trim(),
    externalEndpoint: v.externalEndpoint.trim(),
    domainNames: splitList(v.domainNames),
    mode: v.runtime,
    // The server accepts an engine only with mode docker; empty leaves its default ("local").
    ...(v.runtime === "docker" && v.dockerEngine.trim() ? { dockerEngine: v.dockerEngine.trim() } : {}),
    ...(v.version.trim() ? { version: v.version.trim() } : {}),
  };
  return v.kind === "peer"
    ? {
        name: v.name.trim(),
        blockchainPlatform: "FABRIC",
        fabricPeer: { ...common, chaincodeAddress: v.chaincodeAddress.trim() },
      }
    : {
        name: v.name.trim(),
        blockchainPlatform: "FABRIC",
        fabricOrderer: { ...common, adminAddress: v.adminAddress.trim() },
      };
}

/** PUT /nodes/{id} body: the same fields, minus organization (fixed once issued). */
export function toUpdateFabricBody(v: FabricFormValues): UpdateNodeBody {
  const common = {
    listenAddress: v.listenAddress.trim(),
    operationsListenAddress: v.operationsListenAddress.trim(),
    externalEndpoint: v.externalEndpoint.trim(),
    domainNames: splitList(v.domainNames),
    ...(v.version.trim() ? { version: v.version.trim() } : {}),
  };
  return v.kind === "peer"
    ? {
        name: v.name.trim(),
        blockchainPlatform: "FABRIC",
        fabricPeer: { ...common, chaincodeAddress: v.chaincodeAddress.trim() },
      }
    : {
        name: v.name.trim(),
        blockchainPlatform: "FABRIC",
        fabricOrderer: { ...common, adminAddress: v.adminAddress.trim() },
      };
}

/** The edit form's starting values from an existing node. */
export function valuesFromNode(n: NodeInfo): FabricFormValues {
  const p = n.fabricPeer;
  const o = n.fabricOrderer;
  const c = p ?? o;
  return {
    kind: p ? "peer" : "orderer",
    runtime: c?.mode === "docker" ? "docker" : "service",
    dockerEngine: c?.mode === "docker" ? (c.dockerEngine ?? "local") : "",
    name: n.name,
    organizationId: c ? String(c.organizationId) : "",
    listenAddress: c?.listenAddress ?? "",
    chaincodeAddress: p?.chaincodeAddress ?? "",
    operationsListenAddress: c?.operationsAddress ?? "",
    adminAddress: o?.adminAddress ?? "",
    externalEndpoint: c?.externalEndpoint ?? "",
    domainNames: (c?.domainNames ?? []).join(", "),
    version: c?.version ?? "",
  };
}

const both = (f: string): string[] => [`fabricPeer.${f}`, `fabricOrderer.${f}`];

/** Where the server reports each field's errors (CONVENTIONS §7 field paths). */
export const FABRIC_FORM_FIELDS = {
  name: "name",
  runtime: both("mode"),
  dockerEngine: both("dockerEngine"),
  organizationId: [...both("organizationId"), ...both("mspId")],
  listenAddress: both("listenAddress"),
  chaincodeAddress: "fabricPeer.chaincodeAddress",
  operationsListenAddress: both("operationsListenAddress"),
  adminAddress: "fabricOrderer.adminAddress",
  externalEndpoint: both("externalEndpoint"),
  domainNames: both("domainNames"),
  version: both("version"),
} as const;
