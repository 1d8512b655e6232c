/**
 * The one error the Besu library throws for bad caller input. It carries the name of the
 * offending field so the module layer can map it to a named 400 (`InputError`) without
 * parsing messages. The library itself stays free of HTTP imports.
 */
export class BesuInputError extends Error {
  /** Stable machine-readable code; the HTTP layer may surface it in `details`. */
  readonly code = "BESU_INVALID_INPUT";

  /**
   * @param field dotted path of the offending input, e.g. `validators[2]` or `rpc.port`
   * @param problem what is wrong with it, phrased to follow the field name
   */
  constructor(
    readonly field: string,
    problem: string,
  ) {
    super(`${field}: ${problem}`);
    this.name = "BesuInputError";
  }
}

/** A JSON-RPC call failed: the node was unreachable, timed out or answered with an error. */
export class BesuRpcError extends Error {
  constructor(
    readonly method: string,
    message: string,
    readonly rpcCode?: number,
  ) {
    super(`${method}: ${message}`);
    this.name = "BesuRpcError";
  }
}
