import type { FabricApi, Json } from "./fabric-api.js";
import {
  addOrgsFromConsoles,
  connectFabric,
  federatedFabricApi,
  shareAndJoin,
  type FederatedFabricApi,
} from "./fabric-federation.js";

/** One console of the consortium: its peer org, its running peer and its row of the channel. */
export interface ConsortiumMember {
  api: FederatedFabricApi;
  org: Json;
  orgId: number;
  mspId: string;
  peer: Json;
  peerId: number;
  /** This console's network row of the channel. */
  networkId: number;
}

export type MemberName = "a" | "b" | "c";

export interface Consortium {
  channel: string;
  a: ConsortiumMember;
  b: ConsortiumMember;
  c: ConsortiumMember;
  /** A's orderer org and its one orderer (the channel's only orderer). */
  ordererOrg: Json;
  orderer: Json;
  /** The id, on console `on`, of its connection with console `to`. */
  conn(on: MemberName, to: MemberName): number;
  close(): Promise<void>;
}

/**
 * Three real consoles (own data dirs and ports), connected pairwise, each holding one peer org
 * with one running peer; A also holds the orderer org with one orderer. A creates the channel
 * with its org, adds B's and C's orgs in one config update (from their external-organization
 * records: A's org alone meets MAJORITY Admins of one), and shares it; B and C accept and join.
 * The channel ends with the three peer orgs under the default MAJORITY Admins policy, and every
 * console has its network row of it. Each console reserves its own 60 node ports (fabricApi).
 */
export async function consortium(opts: { code: string; channel: string }): Promise<Consortium> {
  const { code, channel } = opts;
  const started: FabricApi[] = [];
  const close = async () => {
    await Promise.all(started.map((c) => c.close()));
  };
  try {
    const track = (c: FabricApi) => started.push(c);
    const [a, b, c] = await Promise.all([
      federatedFabricApi(track),
      federatedFabricApi(track),
      federatedFabricApi(track),
    ]);

    const peerOrg = async (api: FederatedFabricApi, letter: string) => {
      const org = await api.ok("POST", "/organizations", {
        mspId: `${code}${letter}Org1MSP`,
        name: `${code} ${letter}`,
      });
      const [peer] = (await api.createNodes(org, 1, 0, `${code.toLowerCase()}${letter.toLowerCase()}-`)) as [Json];
      return { org, peer };
    };
    const [chan, bOwn, cOwn] = await Promise.all([
      a.peerOrdererChannel({ code: `${code}A`, prefix: `${code.toLowerCase()}a`, channel }),
      peerOrg(b, "B"),
      peerOrg(c, "C"),
    ]);

    const ab = await connectFabric(a, b);
    const ac = await connectFabric(a, c);
    const bc = await connectFabric(b, c);
    const ids: Record<`${MemberName}${MemberName}`, number> = {
      ab: ab.toOnFrom,
      ba: ab.fromOnTo,
      ac: ac.toOnFrom,
      ca: ac.fromOnTo,
      bc: bc.toOnFrom,
      cb: bc.fromOnTo,
      aa: 0,
      bb: 0,
      cc: 0,
    };

    await addOrgsFromConsoles(a, chan.net.id, [
      { console: b, mspId: bOwn.org.mspId },
      { console: c, mspId: cOwn.org.mspId },
    ]);
    const join = (to: FederatedFabricApi, toOnOwner: number, peer: Json) =>
      shareAndJoin({ owner: a, networkId: chan.net.id, to, toOnOwner, channel, peerIds: [peer.id] });
    const [bNet, cNet] = await Promise.all([join(b, ab.toOnFrom, bOwn.peer), join(c, ac.toOnFrom, cOwn.peer)]);

    const member = (api: FederatedFabricApi, org: Json, peer: Json, networkId: number): ConsortiumMember => ({
      api,
      org,
      orgId: org.id as number,
      mspId: org.mspId as string,
      peer,
      peerId: peer.id as number,
      networkId,
    });
    return {
      channel,
      a: member(a, chan.org, chan.peer, chan.net.id as number),
      b: member(b, bOwn.org, bOwn.peer, bNet.networkId),
      c: member(c, cOwn.org, cOwn.peer, cNet.networkId),
      ordererOrg: chan.ord,
      orderer: chan.orderer,
      conn: (on, to) => {
        if (on === to) throw new Error("a console has no connection with itself");
        return ids[`${on}${to}`];
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
