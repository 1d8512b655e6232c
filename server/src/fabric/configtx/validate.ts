import { ConfigtxInputError } from "./errors.js";
import type { ChannelConfigInput } from "./types.js";

const CHANNEL_ID = /^[a-z][a-z0-9.-]*$/;
const DURATION = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/;
const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/;

/**
 * Fabric's channel name rule (common/configtx/validator.go): lowercase letters, digits, dots
 * and dashes, starting with a letter, shorter than 250 characters.
 * @throws ConfigtxInputError("channelId")
 */
export function assertValidChannelId(channelId: string): void {
  if (channelId.length === 0 || channelId.length >= 250 || !CHANNEL_ID.test(channelId)) {
    throw new ConfigtxInputError(
      "channelId",
      `channel name "${channelId.slice(0, 260)}" is invalid: use lowercase letters, digits, "." and "-", start with a letter, fewer than 250 characters`,
    );
  }
}

/** Checks a Go duration string ("2s", "500ms", "1m30s"). */
export function assertDuration(value: string, field: string): void {
  if (!DURATION.test(value) || !/[1-9]/.test(value)) {
    throw new ConfigtxInputError(field, `${field} "${value}" is not a positive duration such as 2s or 500ms`);
  }
}

function assertPort(port: number, field: string): void {
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new ConfigtxInputError(field, `${field} ${port} is not a TCP port`);
  }
}

function assertCert(pem: string | undefined, field: string, what: string): void {
  if (!pem || !PEM_CERT.test(pem)) throw new ConfigtxInputError(field, `${what} is missing or not a PEM certificate`);
}

function majorVersion(version: string): number {
  const m = /^v?(\d+)\.(\d+)/.exec(version);
  if (!m) throw new ConfigtxInputError("fabricVersion", `"${version}" is not a Fabric version`);
  return Number(m[1]);
}

/**
 * Rejects channel inputs Fabric would refuse (or that could never work): a bad channel name,
 * no orderer orgs or consenters, orderers without TLS certs, BFT before Fabric 3, duplicate
 * MSP ids or consenters, bad ports and durations.
 * @throws ConfigtxInputError naming the field
 */
export function validateChannelConfigInput(input: ChannelConfigInput): void {
  assertValidChannelId(input.channelId);
  for (const [kind, orgs] of [
    ["peerOrgs", input.peerOrgs],
    ["ordererOrgs", input.ordererOrgs],
  ] as const) {
    const seen = new Set<string>();
    orgs.forEach((org, i) => {
      const id = org.msp.name;
      if (seen.has(id)) throw new ConfigtxInputError(`${kind}[${i}].msp.name`, `duplicate MSP id "${id}" in ${kind}`);
      seen.add(id);
      if (org.msp.rootCerts.length === 0) {
        throw new ConfigtxInputError(`${kind}[${i}].msp.rootCerts`, `organization ${id} has no root CA certificate`);
      }
    });
  }
  if (input.ordererOrgs.length === 0) {
    throw new ConfigtxInputError("ordererOrgs", "a channel needs at least one orderer organization");
  }
  input.ordererOrgs.forEach((org, i) => {
    if (org.msp.tlsRootCerts.length === 0) {
      throw new ConfigtxInputError(
        `ordererOrgs[${i}].msp.tlsRootCerts`,
        `orderer organization ${org.msp.name} has no TLS CA certificate: orderers must use TLS`,
      );
    }
    if (org.ordererEndpoints.length === 0) {
      throw new ConfigtxInputError(
        `ordererOrgs[${i}].ordererEndpoints`,
        `orderer organization ${org.msp.name} needs at least one orderer endpoint`,
      );
    }
    org.ordererEndpoints.forEach((e, j) => {
      const m = /^[^\s:]+:(\d+)$/.exec(e);
      if (!m) throw new ConfigtxInputError(`ordererOrgs[${i}].ordererEndpoints[${j}]`, `"${e}" is not host:port`);
      assertPort(Number(m[1]), `ordererOrgs[${i}].ordererEndpoints[${j}]`);
    });
  });
  input.peerOrgs.forEach((org, i) =>
    (org.anchorPeers ?? []).forEach((a, j) => assertPort(a.port, `peerOrgs[${i}].anchorPeers[${j}].port`)),
  );

  const c = input.consensus;
  if (c.type !== "etcdraft" && c.type !== "BFT") {
    throw new ConfigtxInputError("consensus.type", `unknown consensus type "${String((c as { type: unknown }).type)}"`);
  }
  if (c.type === "BFT" && input.fabricVersion !== undefined && majorVersion(input.fabricVersion) < 3) {
    throw new ConfigtxInputError("consensus.type", `BFT needs Fabric 3.x; the orderers run ${input.fabricVersion}`);
  }
  if (c.consenters.length === 0)
    throw new ConfigtxInputError("consensus.consenters", "at least one consenter is needed");
  const endpoints = new Set<string>();
  c.consenters.forEach((k, i) => {
    const field = `consensus.consenters[${i}]`;
    if (!k.host) throw new ConfigtxInputError(`${field}.host`, "consenter host is empty");
    assertPort(k.port, `${field}.port`);
    assertCert(k.clientTlsCert, `${field}.clientTlsCert`, "the consenter's client TLS certificate");
    assertCert(k.serverTlsCert, `${field}.serverTlsCert`, "the consenter's server TLS certificate");
    const ep = `${k.host}:${k.port}`;
    if (endpoints.has(ep)) throw new ConfigtxInputError(field, `consenter ${ep} is listed twice`);
    endpoints.add(ep);
  });
  if (c.type === "BFT") {
    const ids = new Set<number>();
    const ordererMsps = new Set(input.ordererOrgs.map((o) => o.msp.name));
    c.consenters.forEach((k, i) => {
      const field = `consensus.consenters[${i}]`;
      if (!Number.isInteger(k.id) || k.id < 1 || ids.has(k.id)) {
        throw new ConfigtxInputError(`${field}.id`, `consenter id ${k.id} must be a unique positive integer`);
      }
      ids.add(k.id);
      if (!ordererMsps.has(k.mspId)) {
        throw new ConfigtxInputError(`${field}.mspId`, `consenter MSP "${k.mspId}" is not an orderer organization`);
      }
      assertCert(k.identity, `${field}.identity`, "the consenter's signing identity");
    });
    const channelCaps = input.capabilities?.channel;
    if (channelCaps && !channelCaps.includes("V3_0")) {
      throw new ConfigtxInputError("capabilities.channel", "BFT needs the V3_0 channel capability");
    }
  }
  if (c.options && "tickInterval" in c.options && c.options.tickInterval !== undefined) {
    assertDuration(c.options.tickInterval, "consensus.options.tickInterval");
  }
  if (input.batchTimeout !== undefined) assertDuration(input.batchTimeout, "batchTimeout");
  const b = input.batchSize ?? {};
  for (const k of ["maxMessageCount", "absoluteMaxBytes", "preferredMaxBytes"] as const) {
    const v = b[k];
    if (v !== undefined && (!Number.isInteger(v) || v < 1 || v > 0xffffffff)) {
      throw new ConfigtxInputError(`batchSize.${k}`, `batchSize.${k} must be a positive 32-bit integer`);
    }
  }
  if (
    b.absoluteMaxBytes !== undefined &&
    b.preferredMaxBytes !== undefined &&
    b.preferredMaxBytes > b.absoluteMaxBytes
  ) {
    throw new ConfigtxInputError("batchSize.preferredMaxBytes", "preferredMaxBytes can't exceed absoluteMaxBytes");
  }
}
