import { type FabricApi, type Json, TEST_BATCH_TIMEOUT } from "./fabric-api.js";

/**
 * The governance e2e tests' channel: four peer orgs of which the first three are the channel's
 * (MAJORITY Admins needs two), and an orderer org with one orderer, joined. The fourth org is the
 * one a proposal can add. `tag` keeps MSP ids, names and the channel apart between test files.
 */
export async function threeOrgChannel(
  h: FabricApi,
  tag: { msp: string; name: string; channel: string; nodes: string },
): Promise<{ orgs: Json[]; orderer: Json; net: Json }> {
  const orgs: Json[] = [];
  for (const i of [1, 2, 3, 4]) {
    orgs.push(await h.ok("POST", "/organizations", { mspId: `${tag.msp}${i}MSP`, name: `${tag.name} ${i}` }));
  }
  const ord = await h.ok("POST", "/organizations", { mspId: `${tag.msp}OrdMSP`, name: `${tag.name} Orderers` });
  const [orderer] = (await h.createNodes(ord, 0, 1, tag.nodes)) as [Json];
  const net = await h.ok("POST", "/networks/fabric", {
    name: tag.channel,
    config: {
      batchTimeout: TEST_BATCH_TIMEOUT,
      peerOrganizations: orgs.slice(0, 3).map((o) => ({ id: o.id, nodeIds: [] })),
      ordererOrganizations: [{ id: ord.id, nodeIds: [orderer.id] }],
    },
  });
  await h.ok("POST", `/networks/fabric/${net.id}/orderers/${orderer.id}/join`);
  return { orgs, orderer, net };
}
