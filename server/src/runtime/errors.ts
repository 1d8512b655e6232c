/**
 * Errors thrown by the runtime (binaries, ports, process supervisor). Like the crypto
 * library, runtime/ does not import the HTTP error vocabulary: services map these by `code`
 * (e.g. FABRIC_BINARY_NOT_FOUND → a named 400 "a version with no binary").
 */
export class RuntimeError extends Error {
  constructor(
    public readonly code: RuntimeErrorCode,
    message: string,
    public readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "RuntimeError";
  }
}

export type RuntimeErrorCode =
  | "FABRIC_BINARY_NOT_FOUND"
  | "FABRIC_VERSION_UNSUPPORTED"
  | "PORT_INVALID"
  | "PORT_RANGE_EXHAUSTED"
  | "PROCESS_UNKNOWN"
  | "PROCESS_SPAWN_FAILED"
  | "DOCKER_UNAVAILABLE"
  | "DOCKER_IMAGE_MISSING"
  | "LOG_FILE_TOO_LARGE";
