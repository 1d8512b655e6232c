/** Every failed call surfaces as this one error, whatever the transport said (CONVENTIONS §11). */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly body?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null;
}

/** Builds an ApiError from a status and the parsed body (the server's `{error, message}` envelope, or text). */
export function toApiError(status: number, body: unknown): ApiError {
  if (isRecord(body)) {
    const code = typeof body.error === "string" ? body.error : `HTTP_${status}`;
    const message = typeof body.message === "string" ? body.message : "";
    return new ApiError(status, code, message, body);
  }
  if (typeof body === "string" && body.trim() !== "") return new ApiError(status, `HTTP_${status}`, body.trim(), body);
  return new ApiError(status, `HTTP_${status}`, "", body);
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}
