/**
 * The one error vocabulary of the server. Services throw these; the error handler maps them
 * to HTTP. `code` is stable and part of the API.
 */
export class AppError extends Error {
  constructor(
    message: string,
    public readonly status: number,
    public readonly code: string,
    public readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InputError extends AppError {
  constructor(message: string, details?: unknown) {
    super(message, 400, "INVALID_INPUT", details);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = "authentication required") {
    super(message, 401, "UNAUTHORIZED");
  }
}

export class ForbiddenError extends AppError {
  constructor(message = "you do not have permission to perform this action", details?: unknown) {
    super(message, 403, "FORBIDDEN", details);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super(message, 404, "NOT_FOUND");
  }
}

export class ConflictError extends AppError {
  constructor(message: string, details?: unknown) {
    super(message, 409, "CONFLICT", details);
  }
}

export class RateLimitError extends AppError {
  constructor(
    message: string,
    public readonly retryAfterSeconds: number,
  ) {
    super(message, 429, "RATE_LIMITED");
  }
}

/** A node or service we call (JSON-RPC, gRPC, operations endpoint) failed or was unreachable. */
export class UpstreamError extends AppError {
  constructor(message: string, details?: unknown) {
    super(message, 502, "UPSTREAM_ERROR", details);
  }
}

/** The message of anything thrown (an Error's message, else its string form). */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * A tool a feature runs (restic, prometheus) is not installed: 503 `<TOOL>_MISSING`, saying how to
 * install it or where to point the console at it.
 */
export class ToolMissingError extends AppError {
  constructor(tool: string, envVar: string, detail: string) {
    super(
      `${tool} was not found (${detail}); install it (Debian: apt-get install ${tool}) or set ${envVar}`,
      503,
      `${tool.toUpperCase()}_MISSING`,
    );
  }
}
