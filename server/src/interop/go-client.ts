import { request } from "node:http";
import { gunzipSync } from "node:zlib";

/** Go's zero `time.Time` as `encoding/json` writes it; upstream's clients send and expect it for "never". */
export const GO_ZERO_TIME = "0001-01-01T00:00:00Z";

/** A field no version of this console knows: Go clients newer than the server send fields like it. */
export const GO_EXTRA_FIELD = { x_client_added_later: "ignored by servers that don't know it" } as const;

/** What a Go client's `http.Client.Do` gives back: status, headers and the body, decoded as its json.Decoder would. */
export interface GoResponse<T> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  raw: string;
}

/** How a Go client authenticates: `req.SetBasicAuth` (the CLI) or an `X-API-Key` header (the provider). */
export type GoAuth = { username: string; password: string } | { apiKey: string };

/**
 * `json.Marshal` of a value: compact, with `<`, `>`, `&`, U+2028 and U+2029 escaped as `\u003c` and so on
 * (Go's default HTML-safe encoding), which a JSON parser must read as the characters themselves.
 */
export function goMarshal(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * A request as upstream's Go clients (its CLI, its Terraform provider) send it, over a real socket:
 * `User-Agent: Go-http-client/1.1`, `Accept-Encoding: gzip` (Go's transport adds it and unzips), and
 * `Content-Type: application/json` on every request, so a POST without a body goes out with the header
 * and `Content-Length: 0` (`http.NewRequest(method, url, nil)` then `Header.Set`). A body is sent as
 * `json.Marshal` writes it; the caller passes nil slices and maps as `null`, times as Go writes them, and
 * whatever extra fields the client's struct has.
 */
export class GoClient {
  constructor(
    private readonly baseUrl: string,
    private readonly auth: GoAuth,
  ) {}

  /** The same client with other credentials (a user the test made, an API key). */
  as(auth: GoAuth): GoClient {
    return new GoClient(this.baseUrl, auth);
  }

  async do<T = unknown>(method: string, path: string, body?: unknown): Promise<GoResponse<T>> {
    const url = new URL(`/api/v1${path}`, this.baseUrl);
    const payload = body === undefined ? Buffer.alloc(0) : Buffer.from(goMarshal(body));
    const headers: Record<string, string> = {
      "User-Agent": "Go-http-client/1.1",
      "Accept-Encoding": "gzip",
      "Content-Type": "application/json",
      "Content-Length": String(payload.length),
    };
    if ("apiKey" in this.auth) headers["X-API-Key"] = this.auth.apiKey;
    else
      headers.Authorization = `Basic ${Buffer.from(`${this.auth.username}:${this.auth.password}`).toString("base64")}`;
    return new Promise((resolve, reject) => {
      const req = request(url, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          let buf = Buffer.concat(chunks);
          if (res.headers["content-encoding"] === "gzip") buf = gunzipSync(buf);
          const raw = buf.toString("utf8");
          const type = String(res.headers["content-type"] ?? "");
          let parsed: unknown = raw;
          if (type.includes("json") && raw.length > 0) parsed = JSON.parse(raw) as unknown;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed as T, raw });
        });
      });
      req.on("error", reject);
      req.end(payload);
    });
  }

  /** `do`, failing with the method, path, status and body unless the status is `want`. */
  async expect<T = unknown>(want: number, method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.do<T>(method, path, body);
    if (res.status !== want) throw new Error(`${method} ${path}: ${res.status}, wanted ${want}: ${res.raw}`);
    return res.body;
  }
}
