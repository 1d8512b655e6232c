import { createPrivateKey, createPublicKey, verify } from "node:crypto";
import { createRequire } from "node:module";
import * as grpc from "@grpc/grpc-js";
import { connect, hash } from "@hyperledger/fabric-gateway";
import { common, gateway, google, msp, peer } from "@hyperledger/fabric-protos";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signLowS } from "../../crypto/key-algorithms.js";
import { freePort } from "../../test-support/ports.js";
import { GrpcLiteError, openGrpcLite } from "../grpc-lite.js";
import { fabricMessageSigner } from "../sign.js";
import { createTestOrg, type CertPair } from "../test-support/org-fixtures.js";
import { ChaincodeCallError } from "./call.js";
import {
  createEvaluator,
  errorDetails,
  EVALUATE_PATH,
  evaluateRequest,
  proposalBytes,
  serializedIdentity,
} from "./evaluate.js";

/** google.protobuf.Any, the type of a google.rpc.Status detail (google-protobuf has no typings for it). */
const { Any } = createRequire(import.meta.url)("google-protobuf/google/protobuf/any_pb.js") as {
  Any: new () => { setTypeUrl(u: string): void; setValue(v: Uint8Array): void };
};

/**
 * The query path without fabric-gateway (issue 34): what it writes must be what fabric-gateway writes,
 * byte for byte, and it must speak gRPC to a real gRPC server (grpc-js's) over TLS, mutual TLS and a
 * server name override, with the Gateway's error details, deadlines and unreachable peers. The chaincode
 * e2e tests query real Fabric peers through it.
 */

let org: Awaited<ReturnType<typeof createTestOrg>>;
let admin: CertPair;
let serverTls: CertPair;
let clientTls: CertPair;

beforeAll(async () => {
  org = await createTestOrg("Org1MSP", "org1.example.com");
  admin = await org.identity("admin", "admin");
  serverTls = await org.tls("peer0.org1.example.com");
  clientTls = await org.tls("admin-client");
});

describe("the Evaluate request", () => {
  it("is byte for byte what fabric-gateway sends for the same nonce and time", async () => {
    const key = createPrivateKey(admin.keyPem);
    const client = new grpc.Client("127.0.0.1:1", grpc.credentials.createInsecure());
    const gw = connect({
      client,
      identity: { mspId: "Org1MSP", credentials: Buffer.from(admin.certPem) },
      signer: async (m: Uint8Array) => fabricMessageSigner(key)(m),
      hash: hash.none,
    });
    try {
      const call = {
        channel: "mychannel",
        chaincode: "basic",
        fn: "ReadAsset",
        args: ["asset1", "", "ünïcode"],
        transient: { secret: Uint8Array.from([1, 2, 3]), empty: new Uint8Array(0) },
        endorsingOrganizations: ["Org1MSP", "Org2MSP"],
      };
      const theirs = gw.getNetwork(call.channel).getContract(call.chaincode).newProposal(call.fn, {
        arguments: call.args,
        transientData: call.transient,
        endorsingOrganizations: call.endorsingOrganizations,
      });
      const sent = gateway.ProposedTransaction.deserializeBinary(theirs.getBytes());
      const theirBytes = sent.getProposal()!.getProposalBytes_asU8();
      const header = common.Header.deserializeBinary(peer.Proposal.deserializeBinary(theirBytes).getHeader_asU8());
      const nonce = common.SignatureHeader.deserializeBinary(header.getSignatureHeader_asU8()).getNonce_asU8();
      const ts = common.ChannelHeader.deserializeBinary(header.getChannelHeader_asU8()).getTimestamp()!;
      const ms = ts.getSeconds() * 1000 + ts.getNanos() / 1e6;

      const creator = serializedIdentity("Org1MSP", admin.certPem);
      const ours = proposalBytes(creator, call, nonce, ms);
      expect(Buffer.from(ours.bytes).toString("hex")).toBe(Buffer.from(theirBytes).toString("hex"));
      expect(ours.txId).toBe(theirs.getTransactionId());

      // The request around it, as fabric-gateway's evaluate() builds it.
      const signature = Uint8Array.from([9, 8, 7]);
      const expected = new gateway.EvaluateRequest();
      expected.setTransactionId(theirs.getTransactionId());
      expected.setChannelId(call.channel);
      const signed = new peer.SignedProposal();
      signed.setProposalBytes(theirBytes);
      signed.setSignature(signature);
      expected.setProposedTransaction(signed);
      expected.setTargetOrganizationsList(call.endorsingOrganizations);
      const ourRequest = evaluateRequest(call, ours.txId, ours.bytes, signature);
      expect(Buffer.from(ourRequest).equals(Buffer.from(expected.serializeBinary()))).toBe(true);
    } finally {
      gw.close();
      client.close();
    }
  });

  it("carries the creator as an msp.SerializedIdentity and a tx id of SHA-256(nonce ‖ creator)", () => {
    const creator = serializedIdentity("Org1MSP", admin.certPem);
    const id = msp.SerializedIdentity.deserializeBinary(creator);
    expect(id.getMspid()).toBe("Org1MSP");
    expect(Buffer.from(id.getIdBytes_asU8()).toString()).toBe(admin.certPem);
    const a = proposalBytes(creator, { channel: "c", chaincode: "cc", fn: "f", args: [] });
    const b = proposalBytes(creator, { channel: "c", chaincode: "cc", fn: "f", args: [] });
    expect(a.txId).toMatch(/^[0-9a-f]{64}$/);
    expect(a.txId).not.toBe(b.txId);
  });
});

/** A Gateway service on grpc-js: answers Evaluate with the call's function and args, or fails as a peer does. */
async function startGateway(opts: { mutualTls?: boolean } = {}) {
  const server = new grpc.Server();
  const seen: gateway.EvaluateRequest[] = [];
  const raw = (b: Buffer) => b;
  server.addService(
    {
      evaluate: {
        path: EVALUATE_PATH,
        requestStream: false,
        responseStream: false,
        requestSerialize: raw,
        requestDeserialize: raw,
        responseSerialize: raw,
        responseDeserialize: raw,
      },
    },
    {
      evaluate: (call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) => {
        const req = gateway.EvaluateRequest.deserializeBinary(call.request);
        seen.push(req);
        const signed = req.getProposedTransaction()!;
        const proposal = peer.Proposal.deserializeBinary(signed.getProposalBytes_asU8());
        const payload = peer.ChaincodeProposalPayload.deserializeBinary(proposal.getPayload_asU8());
        const spec = peer.ChaincodeInvocationSpec.deserializeBinary(payload.getInput_asU8()).getChaincodeSpec()!;
        const args = spec
          .getInput()!
          .getArgsList_asU8()
          .map((a) => Buffer.from(a).toString());
        if (args[0] === "hang") return;
        if (args[0] === "fail") {
          const detail = new gateway.ErrorDetail();
          detail.setAddress("peer0.org1:7051");
          detail.setMspId("Org1MSP");
          detail.setMessage("chaincode response 500, asset x does not exist");
          const any = new Any();
          any.setTypeUrl("type.googleapis.com/gateway.ErrorDetail");
          any.setValue(detail.serializeBinary());
          const status = new google.rpc.Status();
          status.setCode(grpc.status.ABORTED);
          status.setMessage("evaluate call to endorser returned error: asset x does not exist");
          status.setDetailsList([any]);
          const md = new grpc.Metadata();
          md.set("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
          return cb({
            code: grpc.status.ABORTED,
            details: "evaluate call to endorser returned error: asset x does not exist",
            metadata: md,
          });
        }
        const response = new peer.Response();
        response.setStatus(200);
        response.setPayload(Buffer.from(JSON.stringify({ args, mutual: call.getPeer() !== "" })));
        const out = new gateway.EvaluateResponse();
        out.setResult(response);
        cb(null, Buffer.from(out.serializeBinary()));
      },
    },
  );
  const creds = grpc.ServerCredentials.createSsl(
    opts.mutualTls ? Buffer.from(org.tlsCa.certificatePem) : null,
    [{ private_key: Buffer.from(serverTls.keyPem), cert_chain: Buffer.from(serverTls.certPem) }],
    opts.mutualTls ?? false,
  );
  const port = await freePort();
  await new Promise<void>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${port}`, creds, (err) => (err ? reject(err) : resolve())),
  );
  return { port, seen, close: () => new Promise<void>((r) => server.tryShutdown(() => r())) };
}

describe("queries over grpc-lite against a gRPC server", () => {
  let plain: Awaited<ReturnType<typeof startGateway>>;
  let mutual: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    plain = await startGateway();
    mutual = await startGateway({ mutualTls: true });
  });
  afterAll(async () => {
    await plain?.close();
    await mutual?.close();
  });

  const identity = () => ({
    mspId: "Org1MSP",
    certPem: admin.certPem,
    signMessage: fabricMessageSigner(createPrivateKey(admin.keyPem)),
  });

  it("returns the payload, signs the proposal with the identity's key, and reuses one session", async () => {
    const ev = createEvaluator(
      { address: `127.0.0.1:${plain.port}`, tlsRootCert: org.tlsCa.certificatePem },
      identity(),
    );
    try {
      for (let i = 0; i < 3; i++) {
        const r = await ev.evaluate({
          channel: "mychannel",
          chaincode: "basic",
          fn: "ReadAsset",
          args: [`asset${i}`, ""],
        });
        expect(JSON.parse(Buffer.from(r.result).toString()).args).toEqual(["ReadAsset", `asset${i}`, ""]);
        const req = plain.seen.at(-1)!;
        expect(req.getTransactionId()).toBe(r.txId);
        expect(req.getChannelId()).toBe("mychannel");
        const signed = req.getProposedTransaction()!;
        const ok = verify(
          "sha256",
          signed.getProposalBytes_asU8(),
          createPublicKey(admin.certPem),
          signed.getSignature_asU8(),
        );
        expect(ok).toBe(true);
      }
    } finally {
      ev.close();
    }
  });

  it("signs through a digest signer (KMS, Vault transit) the same proposal", async () => {
    const key = createPrivateKey(admin.keyPem);
    const ev = createEvaluator(
      { address: `127.0.0.1:${plain.port}`, tlsRootCert: org.tlsCa.certificatePem },
      {
        mspId: "Org1MSP",
        certPem: admin.certPem,
        // The digest is signed as is: verify() over the proposal with SHA-256 proves it was the proposal's.
        signDigest: async (digest) => signLowS(key, digest, { prehashed: true, encoding: "der" }),
      },
    );
    try {
      await ev.evaluate({ channel: "c", chaincode: "basic", fn: "ReadAsset", args: ["a"] });
      const signed = plain.seen.at(-1)!.getProposedTransaction()!;
      expect(
        verify("sha256", signed.getProposalBytes_asU8(), createPublicKey(admin.certPem), signed.getSignature_asU8()),
      ).toBe(true);
    } finally {
      ev.close();
    }
  });

  it("speaks mutual TLS with the client pair and verifies the server against the override name", async () => {
    const endpoint = {
      address: `127.0.0.1:${mutual.port}`,
      tlsRootCert: org.tlsCa.certificatePem,
      serverNameOverride: "peer0.org1.example.com",
      clientCert: clientTls.certPem,
      clientKey: clientTls.keyPem,
    };
    const ev = createEvaluator(endpoint, identity());
    try {
      const r = await ev.evaluate({ channel: "c", chaincode: "basic", fn: "Ping", args: [] });
      expect(JSON.parse(Buffer.from(r.result).toString()).args).toEqual(["Ping"]);
    } finally {
      ev.close();
    }
    // Without the client pair the server refuses the handshake: a transport error, nothing evaluated.
    const bare = createEvaluator({ ...endpoint, clientCert: undefined, clientKey: undefined }, identity());
    try {
      const err = await bare
        .evaluate({ channel: "c", chaincode: "basic", fn: "Ping", args: [] })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ChaincodeCallError);
      expect((err as ChaincodeCallError).kind).toBe("connect");
    } finally {
      bare.close();
    }
    // A name the certificate does not carry is refused too.
    const wrongName = createEvaluator({ ...endpoint, serverNameOverride: "peer9.other.org" }, identity());
    try {
      const err = (await wrongName
        .evaluate({ channel: "c", chaincode: "basic", fn: "Ping", args: [] })
        .catch((e: unknown) => e)) as ChaincodeCallError;
      expect(err.kind).toBe("connect");
      expect(err.message).toMatch(/peer9\.other\.org/);
    } finally {
      wrongName.close();
    }
  });

  it("reports the Gateway's message and each peer's words, with the tx id, as fabric-gateway's errors did", async () => {
    const ev = createEvaluator(
      { address: `127.0.0.1:${plain.port}`, tlsRootCert: org.tlsCa.certificatePem },
      identity(),
    );
    try {
      const err = (await ev
        .evaluate({ channel: "c", chaincode: "basic", fn: "fail", args: [] })
        .catch((e: unknown) => e)) as ChaincodeCallError;
      expect(err).toBeInstanceOf(ChaincodeCallError);
      expect(err.kind).toBe("evaluate");
      expect(err.message).toBe(
        "evaluate call to endorser returned error: asset x does not exist (Org1MSP@peer0.org1:7051: chaincode response 500, asset x does not exist)",
      );
      expect(err.details).toEqual([
        { address: "peer0.org1:7051", mspId: "Org1MSP", message: "chaincode response 500, asset x does not exist" },
      ]);
      expect(err.txId).toBe(plain.seen.at(-1)!.getTransactionId());
    } finally {
      ev.close();
    }
  });

  it("gives up at the deadline, and reports a peer it can't reach as a connection failure", async () => {
    const ch = openGrpcLite({ address: `127.0.0.1:${plain.port}`, tlsRootCert: org.tlsCa.certificatePem });
    try {
      const proposal = proposalBytes(serializedIdentity("Org1MSP", admin.certPem), {
        channel: "c",
        chaincode: "b",
        fn: "hang",
        args: [],
      });
      const request = evaluateRequest(
        { channel: "c", chaincode: "b", fn: "hang", args: [] },
        proposal.txId,
        proposal.bytes,
        new Uint8Array(1),
      );
      const started = Date.now();
      const err = (await ch.unary(EVALUATE_PATH, request, 300).catch((e: unknown) => e)) as GrpcLiteError;
      expect(err).toBeInstanceOf(GrpcLiteError);
      expect(err.code).toBe(4);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      ch.close();
    }
    const closedPort = await freePort();
    const ev = createEvaluator(
      { address: `127.0.0.1:${closedPort}`, tlsRootCert: org.tlsCa.certificatePem },
      identity(),
    );
    try {
      const err = (await ev
        .evaluate({ channel: "c", chaincode: "b", fn: "f", args: [] })
        .catch((e: unknown) => e)) as ChaincodeCallError;
      expect(err.kind).toBe("connect");
      expect(err.message).toMatch(/failed to connect to 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
    } finally {
      ev.close();
    }
  });

  it("reads no details from a status it can't parse", () => {
    expect(errorDetails(undefined)).toEqual([]);
    expect(errorDetails(Uint8Array.from([0x1a, 0x05, 0x01]))).toEqual([]);
  });
});
