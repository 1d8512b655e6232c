import { expect } from "vitest";
import { buildChannelMsp } from "../fabric/msp/index.js";
import { signedHeaders } from "./federation.js";
import type { Console } from "./sharing.js";

/** Test-only helpers for upstream's federation routes (docs/federation-upstream.md). */

/** Posts to `to` as `from` would, signed with `from`'s identity (the Go console's request: JSON body). */
export function signedPost(from: Console, to: Console, path: string, body: object) {
  const payload = JSON.stringify(body);
  return to.t.app.inject({
    method: "POST",
    url: `/api/v1${path}`,
    headers: signedHeaders(from.id, { to: to.id.nodeId, method: "POST", path, body: payload }),
    payload,
  });
}

/** An organization of `c` with its channel MSP and certificates. */
export async function orgMsp(c: Console, mspId: string) {
  const res = await c.api("POST", "/organizations", { mspId, name: mspId });
  expect(res.statusCode, res.body).toBe(201);
  const o = res.json() as { signCertificate: string; tlsCertificate: string };
  return { msp: buildChannelMsp({ mspId, caCertPem: o.signCertificate, tlsCaCertPem: o.tlsCertificate }), ...o };
}

/** Registers each console on the other through POST /node/register-peer; answers the connection id of `b` on `a`. */
export async function registerEachOther(a: Console, b: Console): Promise<number> {
  let bOnA = 0;
  for (const [here, there] of [
    [a, b],
    [b, a],
  ] as const) {
    const res = await here.api("POST", "/node/register-peer", {
      peer_public_key: there.id.publicKey,
      peer_endpoint: there.url,
    });
    expect(res.statusCode, res.body).toBe(200);
    if (here === a) bOnA = Number((res.json() as { peer_id: string }).peer_id);
  }
  return bOnA;
}
