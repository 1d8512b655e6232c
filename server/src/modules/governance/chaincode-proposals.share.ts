import { createHash } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { z } from "zod";
import { nowIso } from "../../db/db.js";
import type { EventBus } from "../../events/bus.js";
import { errorMessage, InputError, NotFoundError } from "../../http/errors.js";
import { packSource } from "../../runtime/chaincode-source.js";
import type { ConnectionRow } from "../federation/federation.repo.js";
import type { ChaincodeProposalsRepo } from "./chaincode-proposals.repo.js";
import type { ChaincodeProposals } from "./chaincode-proposals.service.js";
import type { chaincodeProposalWire } from "./chaincode-proposals.wire.js";
import { MAX_CC_SOURCE_BYTES } from "./chaincode-proposals.wire.js";
import { GOVERNANCE_PATHS } from "./governance.inbound.js";
import type { FederationPlumbing } from "./governance.share.js";

const MiB = 1024 * 1024;
const sha256 = (b: Buffer): string => createHash("sha256").update(b).digest("hex");

/**
 * Chaincode proposals travelling between consoles: the sender posts the definition's fields and its
 * source (a tar.gz of the source folder, or the executable) over the signed federation transport;
 * the receiver checks the digest and size, keeps the archive under the data dir and maps the channel
 * to its own network by name.
 */
export function createChaincodeProposalSharing(deps: {
  repo: ChaincodeProposalsRepo;
  proposals: Pick<ChaincodeProposals, "row" | "definitionOf">;
  federation: () => FederationPlumbing;
  networkIdByChannel(name: string): Promise<number | null>;
  bus: Pick<EventBus, "publish">;
  /** `<dataDir>/governance/chaincode`. */
  dir: string;
}) {
  const { repo } = deps;

  return {
    async share(id: number, recipients: number[], user: string): Promise<{ success: boolean; error?: string }> {
      const r = await deps.proposals.row(id);
      const found = await Promise.all(recipients.map((cid) => deps.federation().connectionById(cid)));
      const targets = recipients.map((cid, i) => {
        const c = found[i];
        if (!c)
          throw new InputError(
            `body.recipients[${i}]: no connected console with id ${cid} (GET /node/connected-peers)`,
          );
        if (c.status === "revoked")
          throw new InputError(`body.recipients[${i}]: the connection with ${c.node_id} is revoked`);
        return c;
      });
      const def = await deps.proposals.definitionOf(r);
      let source: Buffer = Buffer.alloc(0);
      if (def?.source_path && def.source_type !== "none" && def.source_type !== "docker") {
        source = await packSource(def.source_path, def.source_type === "executable");
        if (source.length > MAX_CC_SOURCE_BYTES) {
          throw new InputError(
            `source: the source archive is ${(source.length / MiB).toFixed(1)} MiB, over the ${MAX_CC_SOURCE_BYTES / MiB} MiB limit`,
          );
        }
      } else if (!r.docker_image) {
        throw new InputError(
          `source: definition ${r.definition_id ?? "-"} has neither source nor docker image; upload its source first`,
        );
      }
      const digest = source.length ? sha256(source) : "";
      const sourceType =
        source.length && def ? (def.source_type as z.infer<typeof chaincodeProposalWire>["source_type"]) : "docker";
      const body: z.infer<typeof chaincodeProposalWire> = {
        def_id: r.def_id,
        name: r.name,
        channel_name: r.channel_name,
        version: r.version,
        sequence: r.sequence,
        endorsement_policy: r.endorsement_policy,
        docker_image: r.docker_image,
        init_required: r.init_required === 1,
        source_type: sourceType,
        source_b64: source.toString("base64"),
        source_sha256: digest,
        shared_by: user,
      };
      const already = new Set(JSON.parse(r.shared_with) as number[]);
      const failures: string[] = [];
      const sent: ConnectionRow[] = [];
      for (const c of targets) {
        // A repeated share to the same console is a no-op.
        if (already.has(c.id)) continue;
        try {
          const reply = await deps.federation().client.send({
            endpoint: c.endpoint,
            to: c.node_id,
            method: "POST",
            path: GOVERNANCE_PATHS.chaincode,
            body,
            timeoutMs: 120_000,
          });
          if (reply.status !== 200) throw new Error(`refused it (${reply.status}): ${reply.message}`);
          sent.push(c);
          already.add(c.id);
        } catch (err) {
          failures.push(`${c.node_id}: ${errorMessage(err)}`);
        }
      }
      await repo.update(r.id, {
        shared_with: JSON.stringify([...already]),
        source_sha256: digest,
        source_type: sourceType,
        updated_at: nowIso(),
      });
      if (sent.length) {
        deps.bus.publish("chaincode.shared", {
          chaincode_name: r.name,
          chaincode_id: r.chaincode_id ?? 0,
          proposal_id: r.id,
          version: r.version,
          network_id: r.network_id,
          channel_name: r.channel_name,
          shared_with_nodes: sent.length,
        });
      }
      return failures.length ? { success: false, error: failures.join("; ") } : { success: true };
    },

    async receive(from: string, body: z.infer<typeof chaincodeProposalWire>): Promise<{ proposal_id: string }> {
      const c = await deps.federation().connectionByNodeId(from);
      if (!c || c.status === "revoked") throw new NotFoundError(`no connection with ${from}`);
      const source = Buffer.from(body.source_b64, "base64");
      if (source.length > MAX_CC_SOURCE_BYTES) {
        throw new InputError(`body.source_b64: the source is over the ${MAX_CC_SOURCE_BYTES / MiB} MiB limit`);
      }
      if (body.source_type !== "docker" && body.source_type !== "none" && source.length === 0) {
        throw new InputError(`body.source_b64: a ${body.source_type} proposal carries its source`);
      }
      if (source.length === 0 && !body.docker_image) {
        throw new InputError("body.source_b64: the proposal has neither source nor docker image");
      }
      if ((source.length ? sha256(source) : "") !== body.source_sha256) {
        throw new InputError("body.source_sha256: does not match the SHA-256 of the source");
      }
      const known = await repo.byOrigin(c.id, body.def_id);
      if (known) return { proposal_id: String(known.id) };
      const networkId = (await deps.networkIdByChannel(body.channel_name)) ?? 0;
      const now = nowIso();
      const r = await repo.insertReceived({
        def_id: body.def_id,
        name: body.name,
        network_id: networkId,
        channel_name: body.channel_name,
        version: body.version,
        sequence: body.sequence,
        endorsement_policy: body.endorsement_policy,
        docker_image: body.docker_image,
        chaincode_address: "",
        init_required: body.init_required ? 1 : 0,
        source_type: body.source_type,
        source_sha256: body.source_sha256,
        source_archive: null,
        status: "received",
        error: "",
        connection_id: c.id,
        shared_by: body.shared_by ? `${body.shared_by}@${c.node_id}` : c.node_id,
        shared_by_node_id: c.node_id,
        created_by: body.shared_by,
        chaincode_id: null,
        definition_id: null,
        shared_with: "[]",
        created_at: now,
        updated_at: now,
      });
      // A concurrent delivery of the same proposal stored it first.
      if (!r) return { proposal_id: String((await repo.byOrigin(c.id, body.def_id))?.id ?? 0) };
      if (source.length) {
        const dir = join(deps.dir, String(r.id));
        const file = join(dir, body.source_type === "executable" ? "chaincode" : "source.tgz");
        try {
          await mkdir(dir, { recursive: true });
          await writeFile(`${file}.tmp`, source, { mode: 0o600 });
          await rename(`${file}.tmp`, file);
          await repo.update(r.id, { source_archive: file });
        } catch (err) {
          await rm(dir, { recursive: true, force: true });
          await repo.delete(r.id);
          throw err;
        }
      }
      deps.bus.publish("chaincode.received", {
        chaincode_name: r.name,
        chaincode_id: 0,
        proposal_id: r.id,
        version: r.version,
        network_id: r.network_id,
        channel_name: r.channel_name,
        from_user: body.shared_by,
        from_node_id: c.node_id,
      });
      return { proposal_id: String(r.id) };
    },
  };
}

export type ChaincodeProposalSharing = ReturnType<typeof createChaincodeProposalSharing>;
