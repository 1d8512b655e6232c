import { readFileSync } from "node:fs";
import { common } from "@hyperledger/fabric-protos";
import { buildGenesisBlock } from "../fabric/configtx/index.js";
import { configFromBlock } from "../fabric/deliver.js";
import { buildChannelMsp } from "../fabric/msp/index.js";
import { openDatabase } from "../db/db.js";
import { createGovernanceRepo } from "../modules/governance/governance.repo.js";
import { storeAddOrgProposal } from "./governance-proposal.js";

/**
 * Fixtures of the governance browser test (e2e/specs/governance.test.ts), run as a CLI with a JSON
 * request on stdin. It builds what a real channel would give without Fabric binaries, the way
 * governance.federation.test.ts does in process:
 *
 *   genesis   {channel, orgs: [{mspId, signCert, tlsCert}]}   -> {genesis_b64}: block 0 of a channel
 *             whose peer orgs are `orgs` (the first also the orderer org)
 *   proposal  {dataDir, networkId, channel, genesis_b64, add: {mspId, signCert, tlsCert}}
 *             -> {id}: stores on that console (its SQLite file) the add-org proposal that
 *             POST /pro/networks/proposals computes against a running orderer's config
 */
interface OrgInput {
  mspId: string;
  signCert: string;
  tlsCert: string;
}

const msp = (o: OrgInput) => buildChannelMsp({ mspId: o.mspId, caCertPem: o.signCert, tlsCaCertPem: o.tlsCert });

function genesis(req: { channel: string; orgs: OrgInput[] }): { genesis_b64: string } {
  const first = req.orgs[0];
  if (!first) throw new Error("orgs: at least one organization");
  const block = buildGenesisBlock({
    channelId: req.channel,
    fabricVersion: "3.1.0",
    peerOrgs: req.orgs.map((o) => ({ msp: msp(o) })),
    ordererOrgs: [{ msp: msp(first), ordererEndpoints: ["orderer0.example.com:7050"] }],
    consensus: {
      type: "etcdraft",
      consenters: [
        { host: "orderer0.example.com", port: 7050, clientTlsCert: first.tlsCert, serverTlsCert: first.tlsCert },
      ],
    },
  });
  return { genesis_b64: Buffer.from(block.serializeBinary()).toString("base64") };
}

async function proposal(req: {
  dataDir: string;
  networkId: number;
  channel: string;
  genesis_b64: string;
  add: OrgInput;
}): Promise<{ id: string }> {
  const config = configFromBlock(common.Block.deserializeBinary(Buffer.from(req.genesis_b64, "base64")));
  const handle = openDatabase({ dataDir: req.dataDir });
  try {
    const id = await storeAddOrgProposal(handle.db, {
      networkId: req.networkId,
      channel: req.channel,
      config,
      add: req.add,
    });
    await createGovernanceRepo(handle.db).event(id, "proposal_created", {
      by: "admin",
      config_sequence: config.getSequence(),
    });
    return { id };
  } finally {
    await handle.close();
  }
}

const command = process.argv[2];
const input: unknown = JSON.parse(readFileSync(0, "utf8"));
const out =
  command === "genesis"
    ? genesis(input as Parameters<typeof genesis>[0])
    : command === "proposal"
      ? await proposal(input as Parameters<typeof proposal>[0])
      : undefined;
if (!out) throw new Error(`unknown command ${command ?? ""}: genesis or proposal`);
process.stdout.write(JSON.stringify(out));
