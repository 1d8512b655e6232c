import { setTimeout as sleep } from "node:timers/promises";
import { common, peer } from "@hyperledger/fabric-protos";
import { openGrpcClient, unaryCall, type GrpcEndpoint } from "../grpc-connection.js";
import type { SigningIdentity } from "../identity.js";
import { broadcastWhenLeader } from "../leader-wait.js";
import { endorsementPolicyOf, ProposalError } from "../peer-client.js";
import { createSignedProposal } from "../proposal.js";
import { fillDefinitionArgs, type DefinitionInput } from "./definition.js";
import { txValidationCodeName } from "../enum-names.js";

const LIFECYCLE = "_lifecycle";

/** A transaction was ordered but the peers marked it invalid (e.g. ENDORSEMENT_POLICY_FAILURE). */
export class TransactionInvalidError extends Error {
  constructor(
    public readonly txId: string,
    public readonly code: string,
  ) {
    super(`transaction ${txId} was committed as invalid: ${code}`);
    this.name = "TransactionInvalidError";
  }
}

/** Sends one signed proposal to a peer's Endorser and returns the whole response (status 200 only). */
export async function endorseOn(
  endpoint: GrpcEndpoint,
  signed: peer.SignedProposal,
  what: string,
  timeoutMs?: number,
): Promise<peer.ProposalResponse> {
  const client = openGrpcClient(endpoint);
  try {
    const res = await unaryCall(
      client,
      "/protos.Endorser/ProcessProposal",
      signed,
      (b) => peer.ProposalResponse.deserializeBinary(b),
      timeoutMs,
    );
    const r = res.getResponse();
    const status = r?.getStatus() ?? 0;
    if (status !== 200) throw new ProposalError(status, r?.getMessage() ?? "", `${what} on ${endpoint.address}`);
    return res;
  } finally {
    client.close();
  }
}

/**
 * The transaction envelope of an endorsed proposal, signed by the proposal's creator: the
 * proposal header, its payload without transient data, and every peer's endorsement of the one
 * (byte-identical) response payload.
 */
export function transactionEnvelope(
  signed: peer.SignedProposal,
  responses: peer.ProposalResponse[],
  signer: SigningIdentity,
): common.Envelope {
  const first = responses[0];
  if (!first) throw new Error("no endorsements to assemble a transaction from");
  const payloadBytes = first.getPayload_asU8();
  for (const r of responses.slice(1)) {
    if (Buffer.compare(Buffer.from(r.getPayload_asU8()), Buffer.from(payloadBytes)) !== 0) {
      throw new Error("the peers' endorsements differ (their world states disagree); try again");
    }
  }
  const proposal = peer.Proposal.deserializeBinary(signed.getProposalBytes_asU8());
  const header = common.Header.deserializeBinary(proposal.getHeader_asU8());
  const ccPayload = peer.ChaincodeProposalPayload.deserializeBinary(proposal.getPayload_asU8());
  const stripped = new peer.ChaincodeProposalPayload();
  stripped.setInput(ccPayload.getInput_asU8());

  const action = new peer.ChaincodeEndorsedAction();
  action.setProposalResponsePayload(payloadBytes);
  action.setEndorsementsList(responses.map((r) => r.getEndorsement() as peer.Endorsement));
  const cap = new peer.ChaincodeActionPayload();
  cap.setChaincodeProposalPayload(stripped.serializeBinary());
  cap.setAction(action);
  const txAction = new peer.TransactionAction();
  txAction.setHeader(header.getSignatureHeader_asU8());
  txAction.setPayload(cap.serializeBinary());
  const tx = new peer.Transaction();
  tx.setActionsList([txAction]);

  const payload = new common.Payload();
  payload.setHeader(header);
  payload.setData(tx.serializeBinary());
  const bytes = payload.serializeBinary();
  const env = new common.Envelope();
  env.setPayload(bytes);
  env.setSignature(signer.sign(bytes));
  return env;
}

/**
 * Waits until `peerEndpoint` has committed the transaction (QSCC GetTransactionByID answers) and
 * checks its validation code.
 * @throws TransactionInvalidError when the peers marked it invalid
 */
export async function waitForTransaction(params: {
  peer: GrpcEndpoint;
  signer: SigningIdentity;
  channelId: string;
  txId: string;
  timeoutMs?: number;
}): Promise<void> {
  const deadline = Date.now() + (params.timeoutMs ?? 60_000);
  let delay = 25;
  const client = openGrpcClient(params.peer);
  try {
    for (;;) {
      const { signed } = createSignedProposal({
        signer: params.signer,
        // On the channel: a channel-less proposal is checked against the peer's local MSP, which
        // knows only its own org.
        channelId: params.channelId,
        chaincode: "qscc",
        args: ["GetTransactionByID", params.channelId, params.txId],
      });
      const res = await unaryCall(client, "/protos.Endorser/ProcessProposal", signed, (b) =>
        peer.ProposalResponse.deserializeBinary(b),
      );
      const r = res.getResponse();
      if (r?.getStatus() === 200) {
        const code = peer.ProcessedTransaction.deserializeBinary(r.getPayload_asU8()).getValidationcode();
        if (code !== peer.TxValidationCode.VALID) {
          throw new TransactionInvalidError(params.txId, txValidationCodeName(code));
        }
        return;
      }
      if (Date.now() > deadline) {
        throw new Error(`transaction ${params.txId} was not committed on ${params.peer.address} in time`);
      }
      await sleep(delay);
      delay = Math.min(delay * 2, 500);
    }
  } finally {
    client.close();
  }
}

/** A package installed on a peer, with the definitions (channel → chaincode name/version) using it. */
export interface InstalledPackage {
  packageId: string;
  label: string;
  references: { channel: string; name: string; version: string }[];
}

/** InstallChaincode on one peer (signed by a peer-local admin). Installing the same package again is not an error. */
export async function installChaincode(
  endpoint: GrpcEndpoint,
  signer: SigningIdentity,
  packageBytes: Uint8Array,
  timeoutMs = 300_000,
): Promise<{ packageId: string; label: string; alreadyInstalled: boolean }> {
  const args = new peer.lifecycle.InstallChaincodeArgs();
  args.setChaincodeInstallPackage(packageBytes);
  const { signed } = createSignedProposal({
    signer,
    channelId: "",
    chaincode: LIFECYCLE,
    args: ["InstallChaincode", args.serializeBinary()],
  });
  try {
    const res = await endorseOn(endpoint, signed, "InstallChaincode", timeoutMs);
    const r = peer.lifecycle.InstallChaincodeResult.deserializeBinary(
      res.getResponse()?.getPayload_asU8() ?? new Uint8Array(),
    );
    return { packageId: r.getPackageId(), label: r.getLabel(), alreadyInstalled: false };
  } catch (err) {
    const m =
      err instanceof ProposalError
        ? /chaincode already successfully installed \(package ID '([^']+)'\)/.exec(err.peerMessage)
        : null;
    if (m?.[1]) return { packageId: m[1], label: m[1].split(":")[0] ?? "", alreadyInstalled: true };
    throw err;
  }
}

/** QueryInstalledChaincodes on one peer. */
export async function queryInstalledChaincodes(
  endpoint: GrpcEndpoint,
  signer: SigningIdentity,
): Promise<InstalledPackage[]> {
  const { signed } = createSignedProposal({
    signer,
    channelId: "",
    chaincode: LIFECYCLE,
    args: ["QueryInstalledChaincodes", new peer.lifecycle.QueryInstalledChaincodesArgs().serializeBinary()],
  });
  const res = await endorseOn(endpoint, signed, "QueryInstalledChaincodes", 15_000);
  return peer.lifecycle.QueryInstalledChaincodesResult.deserializeBinary(
    res.getResponse()?.getPayload_asU8() ?? new Uint8Array(),
  )
    .getInstalledChaincodesList()
    .map((c) => ({
      packageId: c.getPackageId(),
      label: c.getLabel(),
      references: [...c.getReferencesMap().entries()].flatMap(([channel, refs]) =>
        refs.getChaincodesList().map((cc: peer.lifecycle.QueryInstalledChaincodesResult.Chaincode) => ({
          channel,
          name: cc.getName(),
          version: cc.getVersion(),
        })),
      ),
    }));
}

/** CheckCommitReadiness: which channel orgs have approved exactly this definition. */
export async function checkCommitReadiness(
  endpoint: GrpcEndpoint,
  signer: SigningIdentity,
  channelId: string,
  d: DefinitionInput,
): Promise<Record<string, boolean>> {
  const args = fillDefinitionArgs(new peer.lifecycle.CheckCommitReadinessArgs(), d);
  const { signed } = createSignedProposal({
    signer,
    channelId,
    chaincode: LIFECYCLE,
    args: ["CheckCommitReadiness", args.serializeBinary()],
  });
  const res = await endorseOn(endpoint, signed, "CheckCommitReadiness", 15_000);
  const r = peer.lifecycle.CheckCommitReadinessResult.deserializeBinary(
    res.getResponse()?.getPayload_asU8() ?? new Uint8Array(),
  );
  return Object.fromEntries([...r.getApprovalsMap().entries()].sort(([a], [b]) => a.localeCompare(b)));
}

/** A committed definition (QueryChaincodeDefinition), or undefined when none is committed under that name. */
export async function queryChaincodeDefinition(
  endpoint: GrpcEndpoint,
  signer: SigningIdentity,
  channelId: string,
  name: string,
): Promise<
  | {
      sequence: number;
      version: string;
      endorsementPolicy: string;
      initRequired: boolean;
      approvals: Record<string, boolean>;
      /** The stored ApplicationPolicy and CollectionConfigPackage bytes (see definitionDifferences). */
      validationParameter: Uint8Array;
      collections: Uint8Array;
    }
  | undefined
> {
  const args = new peer.lifecycle.QueryChaincodeDefinitionArgs();
  args.setName(name);
  const { signed } = createSignedProposal({
    signer,
    channelId,
    chaincode: LIFECYCLE,
    args: ["QueryChaincodeDefinition", args.serializeBinary()],
  });
  try {
    const res = await endorseOn(endpoint, signed, "QueryChaincodeDefinition", 15_000);
    const r = peer.lifecycle.QueryChaincodeDefinitionResult.deserializeBinary(
      res.getResponse()?.getPayload_asU8() ?? new Uint8Array(),
    );
    return {
      sequence: r.getSequence(),
      version: r.getVersion(),
      endorsementPolicy: endorsementPolicyOf(r.getValidationParameter_asU8()),
      initRequired: r.getInitRequired(),
      approvals: Object.fromEntries(r.getApprovalsMap().entries()),
      validationParameter: r.getValidationParameter_asU8(),
      collections: r.getCollections()?.serializeBinary() ?? new Uint8Array(),
    };
  } catch (err) {
    if (err instanceof ProposalError && /namespace \S+ is not defined/.test(err.peerMessage)) return undefined;
    throw err;
  }
}

/** Where a lifecycle transaction was sent and committed. */
export interface LifecycleTx {
  txId: string;
}

/**
 * ApproveChaincodeDefinitionForMyOrg: endorsed by the org's own peer, signed by the org admin,
 * ordered, and waited for on that peer. `packageId` "" approves without a local package (an org
 * that endorses nothing).
 */
export async function approveForMyOrg(params: {
  peer: GrpcEndpoint;
  orderer: GrpcEndpoint;
  signer: SigningIdentity;
  channelId: string;
  definition: DefinitionInput;
  packageId: string;
}): Promise<LifecycleTx> {
  const args = fillDefinitionArgs(new peer.lifecycle.ApproveChaincodeDefinitionForMyOrgArgs(), params.definition);
  const source = new peer.lifecycle.ChaincodeSource();
  if (params.packageId) {
    const local = new peer.lifecycle.ChaincodeSource.Local();
    local.setPackageId(params.packageId);
    source.setLocalPackage(local);
  } else {
    source.setUnavailable(new peer.lifecycle.ChaincodeSource.Unavailable());
  }
  args.setSource(source);
  return submitLifecycle({ ...params, peers: [params.peer], fn: "ApproveChaincodeDefinitionForMyOrg", args });
}

/** CommitChaincodeDefinition: endorsed by a peer of each org given (enough for LifecycleEndorsement), then ordered. */
export async function commitDefinition(params: {
  peers: GrpcEndpoint[];
  orderer: GrpcEndpoint;
  signer: SigningIdentity;
  channelId: string;
  definition: DefinitionInput;
}): Promise<LifecycleTx> {
  const args = fillDefinitionArgs(new peer.lifecycle.CommitChaincodeDefinitionArgs(), params.definition);
  return submitLifecycle({ ...params, fn: "CommitChaincodeDefinition", args });
}

async function submitLifecycle(params: {
  peers: GrpcEndpoint[];
  orderer: GrpcEndpoint;
  signer: SigningIdentity;
  channelId: string;
  fn: string;
  args: { serializeBinary(): Uint8Array };
}): Promise<LifecycleTx> {
  const { signed, txId } = createSignedProposal({
    signer: params.signer,
    channelId: params.channelId,
    chaincode: LIFECYCLE,
    args: [params.fn, params.args.serializeBinary()],
  });
  const responses = await Promise.all(params.peers.map((p) => endorseOn(p, signed, params.fn)));
  const env = transactionEnvelope(signed, responses, params.signer);
  // An orderer without a Raft leader (a new channel, a restart) answers SERVICE_UNAVAILABLE: wait for one.
  await broadcastWhenLeader(params.orderer, env);
  for (const p of params.peers) {
    await waitForTransaction({ peer: p, signer: params.signer, channelId: params.channelId, txId });
  }
  return { txId };
}
