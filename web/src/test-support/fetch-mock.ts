/**
 * A fetch stand-in for unit tests of the data layer (the tests run in Node, without a browser). The
 * typed client captures `fetch` and `Request` when it is created, so install this before anything
 * imports `@/api/client`:
 *
 *   const http = await vi.hoisted(async () => (await import("@/test-support/fetch-mock")).installFetchMock());
 *
 * Relative URLs ("/api/v1/...") resolve against a fixed origin, as a browser resolves them against the page.
 */
export interface RecordedCall {
  method: string;
  /** Path under the API base, e.g. "/pro/chaincodes/proposals/5/accept". */
  path: string;
  /** The query string without "?". */
  query: string;
  /** The JSON body parsed, the raw text for other bodies, undefined without one. */
  body: unknown;
}

export interface FetchMock {
  calls: RecordedCall[];
  /** Answers `method path` (path under the API base) with `status` and a JSON body, until reset. */
  respond: (method: string, path: string, status: number, body: unknown) => void;
  reset: () => void;
}

const ORIGIN = "http://console.test";
const API_BASE = "/api/v1";

export function installFetchMock(): FetchMock {
  const NativeRequest = globalThis.Request;
  const routes = new Map<string, { status: number; body: unknown }>();
  const calls: RecordedCall[] = [];

  class RelativeRequest extends NativeRequest {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === "string" ? new URL(input, ORIGIN) : input, init);
    }
  }

  const fetchMock = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const req = input instanceof NativeRequest ? input : new RelativeRequest(input, init);
    const url = new URL(req.url);
    const text = await req.text();
    let body: unknown = undefined;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    const path = url.pathname.startsWith(API_BASE) ? url.pathname.slice(API_BASE.length) : url.pathname;
    calls.push({ method: req.method, path, query: url.search.replace(/^\?/, ""), body });
    const hit = routes.get(`${req.method} ${path}`) ?? {
      status: 404,
      body: { error: "NOT_FOUND", message: `no mock for ${req.method} ${path}`, requestId: "test" },
    };
    // A 204 (delete) has no body; Response refuses one.
    if (hit.status === 204) return new Response(null, { status: 204 });
    return new Response(JSON.stringify(hit.body), {
      status: hit.status,
      headers: { "content-type": "application/json" },
    });
  };

  globalThis.Request = RelativeRequest;
  globalThis.fetch = fetchMock as typeof fetch;
  return {
    calls,
    respond: (method, path, status, body) => void routes.set(`${method.toUpperCase()} ${path}`, { status, body }),
    reset: () => {
      calls.length = 0;
      routes.clear();
    },
  };
}
