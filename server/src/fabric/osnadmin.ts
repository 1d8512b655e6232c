import { randomBytes } from "node:crypto";
import { request } from "node:https";
import type { common } from "@hyperledger/fabric-protos";

/** An orderer's channel participation (admin) API and the mutual-TLS identity to call it with. */
export interface OsnAdminEndpoint {
  /** "host:port" of Admin.ListenAddress. */
  address: string;
  /** PEM of the TLS CA of the orderer's admin server cert. */
  tlsRootCert: string;
  /** Client TLS cert and key (PEM), issued by a CA in the orderer's Admin.TLS.ClientRootCAs. */
  clientCert: string;
  clientKey: string;
  /** Host name to check the server cert against when it differs from the dialled host. */
  serverName?: string;
}

/** One channel as the participation API reports it. */
export interface OsnChannelInfo {
  name: string;
  url: string;
  consensusRelation: "consenter" | "follower" | "config-tracker" | string;
  status: "active" | "onboarding" | "inactive" | "failed" | string;
  height: number;
}

export interface OsnChannelList {
  systemChannel: { name: string; url: string } | null;
  channels: { name: string; url: string }[];
}

/** The participation API answered with an error status; `status` is the HTTP code (400, 403, 404, 405, 409, 500). */
export class OsnAdminError extends Error {
  constructor(
    public readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "OsnAdminError";
  }
}

const BASE = "/participation/v1/channels";

function call(
  ep: OsnAdminEndpoint,
  method: string,
  path: string,
  body?: { contentType: string; data: Buffer },
  timeoutMs = 30_000,
): Promise<{ status: number; text: string }> {
  const i = ep.address.lastIndexOf(":");
  const host = ep.address.slice(0, i).replace(/^\[|\]$/g, "");
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host,
        port: Number(ep.address.slice(i + 1)),
        method,
        path,
        ca: ep.tlsRootCert,
        cert: ep.clientCert,
        key: ep.clientKey,
        servername: ep.serverName ?? (/^[\d.]+$|:/.test(host) ? undefined : host),
        ...(ep.serverName ? { checkServerIdentity: () => undefined } : {}),
        headers: {
          Accept: "application/json",
          ...(body ? { "Content-Type": body.contentType, "Content-Length": body.data.length } : {}),
        },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`osnadmin ${method} ${path} at ${ep.address} timed out`)));
    req.on("error", reject);
    if (body) req.write(body.data);
    req.end();
  });
}

function parse<T>(r: { status: number; text: string }, what: string): T {
  let json: unknown;
  try {
    json = r.text ? JSON.parse(r.text) : {};
  } catch {
    json = { error: r.text };
  }
  if (r.status < 200 || r.status >= 300) {
    const err = (json as { error?: string }).error ?? r.text;
    throw new OsnAdminError(r.status, `${what}: ${r.status} ${err}`.trim());
  }
  return json as T;
}

/**
 * Joins the orderer to a channel with its genesis (or latest config) block: a multipart POST
 * with one part named `config-block`, as osnadmin sends it.
 * @throws OsnAdminError (405 when the orderer already has the channel; 400 for a bad block)
 */
export async function osnJoinChannel(ep: OsnAdminEndpoint, block: common.Block | Uint8Array): Promise<OsnChannelInfo> {
  const bytes = Buffer.from(block instanceof Uint8Array ? block : block.serializeBinary());
  const boundary = `----chainlaunch${randomBytes(12).toString("hex")}`;
  const data = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="config-block"; filename="config.block"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const r = await call(ep, "POST", BASE, { contentType: `multipart/form-data; boundary=${boundary}`, data });
  return parse<OsnChannelInfo>(r, `join channel at ${ep.address}`);
}

/** Lists the orderer's channels. */
export async function osnListChannels(ep: OsnAdminEndpoint): Promise<OsnChannelList> {
  return parse<OsnChannelList>(await call(ep, "GET", BASE), `list channels at ${ep.address}`);
}

/** One channel's participation status and height. @throws OsnAdminError 404 when the orderer is not in it */
export async function osnGetChannel(ep: OsnAdminEndpoint, channelId: string): Promise<OsnChannelInfo> {
  return parse<OsnChannelInfo>(
    await call(ep, "GET", `${BASE}/${encodeURIComponent(channelId)}`),
    `get channel ${channelId} at ${ep.address}`,
  );
}

/** Removes the orderer from a channel (unjoin). */
export async function osnRemoveChannel(ep: OsnAdminEndpoint, channelId: string): Promise<void> {
  parse<unknown>(
    await call(ep, "DELETE", `${BASE}/${encodeURIComponent(channelId)}`),
    `remove channel ${channelId} at ${ep.address}`,
  );
}
