import { InputError } from "../../http/errors.js";
import { readLastLines } from "../../runtime/log-files.js";
import {
  CcaasProbeError,
  PROBE_TIMEOUT_MS,
  probeChaincodeServer,
  type CcaasProbeResult,
} from "../fabric-chaincodes/ccaas-probe.js";
import type { ChaincodesService } from "../fabric-chaincodes/chaincodes.service.js";

/** Terminal colour codes (fabric-shim's logger writes them): the reason is read on a page. */
const ANSI_COLOR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/**
 * Proves a Run's new chaincode server loads and answers before its definition reaches the channel:
 * the console plays the peer (register, then `org.hyperledger.fabric:GetMetadata`) against the
 * server on its own address. A server that listens but crashed on load (a JavaScript syntax error
 * has no compile step to catch it), never registers, or answers with an error fails here with the
 * reason and the end of its log, and nothing is approved or committed.
 * @throws InputError("source") naming the reason, with the server's log tail in details.log
 */
export async function verifyNewServer(
  chaincodes: Pick<ChaincodesService, "logFile">,
  def: { id: number; chaincode_address: string },
  timeoutMs: number = PROBE_TIMEOUT_MS,
): Promise<CcaasProbeResult> {
  try {
    // Project definitions run without TLS on this host (the runner never asks for it).
    return await probeChaincodeServer({ address: def.chaincode_address, timeoutMs });
  } catch (err) {
    const reason = err instanceof CcaasProbeError ? err.reason : String(err);
    const file = await chaincodes.logFile(def.id).catch(() => "");
    const tail = (file ? await readLastLines(file, 30).catch(() => []) : []).map((l) => l.replace(ANSI_COLOR, ""));
    const short = tail
      .filter((l) => l.trim())
      .slice(-4)
      .join(" | ")
      .slice(-600);
    throw new InputError(
      `run: the new chaincode server did not answer: ${reason}${short ? `; log tail: ${short}` : ""}`,
      { field: "source", log: tail.join("\n") },
    );
  }
}
