import type { FederationClient, FederationReply } from "../federation/federation.client.js";
import type { ConnectionRow } from "../federation/federation.repo.js";
import { ConflictError, InputError, NotFoundError, UpstreamError } from "../../http/errors.js";
import type { GovernanceRepo, ProposalRow } from "./governance.repo.js";

/** What governance needs of federation: the signed client and connection lookups. */
export interface FederationPlumbing {
  client: FederationClient;
  connections(): Promise<ConnectionRow[]>;
  connectionById(id: number): Promise<ConnectionRow | undefined>;
  connectionByNodeId(nodeId: string): Promise<ConnectionRow | undefined>;
}

/** Connection lookups and signed posts shared by the proposal, signature and withdrawal paths. */
export function governanceLinks(federation: () => FederationPlumbing, repo: GovernanceRepo) {
  const send = (c: ConnectionRow, path: string, body: unknown): Promise<FederationReply> =>
    federation().client.send({ endpoint: c.endpoint, to: c.node_id, method: "POST", path, body });
  return {
    /** The operator's chosen connection (`body.connection_id`), not revoked. */
    async connection(id: number): Promise<ConnectionRow> {
      const c = await federation().connectionById(id);
      if (!c)
        throw new InputError(`body.connection_id: no connected console with id ${id} (GET /node/connected-peers)`);
      if (c.status === "revoked")
        throw new ConflictError(`body.connection_id: the connection with ${c.node_id} is revoked`);
      return c;
    },

    /** A connection by id, as stored (revoked ones included). */
    connectionById: (id: number): Promise<ConnectionRow | undefined> => federation().connectionById(id),

    /** The connection of the console that signed an inbound request. */
    async sender(nodeId: string): Promise<ConnectionRow> {
      const c = await federation().connectionByNodeId(nodeId);
      if (!c || c.status === "revoked") throw new NotFoundError(`no connection with ${nodeId}`);
      return c;
    },

    /** Posts signed; the reply whatever its status (the callers decide what a refusal means). */
    send,

    /** Posts signed; anything but 200 is a 502 naming the console that refused. */
    async post(c: ConnectionRow, path: string, body: unknown): Promise<unknown> {
      const reply = await send(c, path, body);
      if (reply.status !== 200) throw new UpstreamError(`${c.node_id} refused it: ${reply.message}`);
      return reply.data;
    },

    /**
     * The proposal an inbound message from `c` names: the copy `c` shared with this console, or
     * one proposed here (its id is ours when the sender received it from us).
     */
    async proposalFor(c: ConnectionRow, proposalId: string): Promise<ProposalRow | undefined> {
      return (
        (await repo.byRemote(c.id, proposalId)) ??
        (await repo.byId(proposalId).then((x) => (x && x.origin_node_id === null ? x : undefined)))
      );
    },
  };
}

export type GovernanceLinks = ReturnType<typeof governanceLinks>;
