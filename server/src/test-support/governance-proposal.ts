import { randomUUID } from "node:crypto";
import type { common } from "@hyperledger/fabric-protos";
import type { DB } from "../db/db.js";
import { addApplicationOrg, computeConfigUpdate, configUpdateToJson } from "../fabric/configtx/index.js";
import { buildChannelMsp } from "../fabric/msp/index.js";
import { createGovernanceRepo } from "../modules/governance/governance.repo.js";

/**
 * Stores the add-org proposal POST /pro/networks/proposals would compute against `config`, without
 * a running orderer: the update comes from the same configtx library, from a channel block the
 * test built. Answers the proposal id.
 */
export async function storeAddOrgProposal(
  db: DB,
  p: {
    networkId: number;
    channel: string;
    config: common.Config;
    add: { mspId: string; signCert: string; tlsCert: string };
  },
): Promise<string> {
  const msp = buildChannelMsp({ mspId: p.add.mspId, caCertPem: p.add.signCert, tlsCaCertPem: p.add.tlsCert });
  const update = computeConfigUpdate(p.channel, p.config, addApplicationOrg(p.config, { msp }));
  const now = new Date().toISOString();
  const id = randomUUID();
  await createGovernanceRepo(db).insert({
    id,
    network_id: p.networkId,
    channel_name: p.channel,
    proposal_type: "add_org",
    operations_json: JSON.stringify([
      {
        type: "add_org",
        payload: { msp_id: p.add.mspId, root_certs: [p.add.signCert], tls_root_certs: [p.add.tlsCert] },
      },
    ]),
    update_b64: Buffer.from(update.serializeBinary()).toString("base64"),
    preview_json: JSON.stringify(configUpdateToJson(update)),
    config_b64: Buffer.from(p.config.serializeBinary()).toString("base64"),
    config_sequence: p.config.getSequence(),
    status: "pending",
    tx_id: null,
    origin_node_id: null,
    connection_id: null,
    remote_proposal_id: null,
    created_by: "admin",
    created_at: now,
    updated_at: now,
  });
  return id;
}
