import type { Client } from "openapi-fetch";
import { api } from "@/api/client";
import type {
  AcceptSharedNetworkResult,
  RejectSharedNetworkResult,
  ShareDirection,
  SharedKeyList,
  SharedNetworkList,
  ShareKeyBody,
  ShareKeyResult,
  ShareNetworkBody,
  ShareNetworkResult,
} from "@/data/sharing/types";

type Json<T> = { headers: Record<string, unknown>; content: { "application/json": T } };
type NoParams = { query?: never; header?: never; path?: never; cookie?: never };
type Op<Res, P = NoParams, Body = never, Status extends number = 200> = {
  parameters: P;
  responses: { [S in Status]: Json<Res> };
} & ([Body] extends [never] ? { requestBody?: never } : { requestBody: { content: { "application/json": Body } } });
type Unused = {
  get?: never;
  put?: never;
  post?: never;
  delete?: never;
  options?: never;
  head?: never;
  patch?: never;
  trace?: never;
};
type Path<Ops> = Omit<Unused, keyof Ops> & Ops & { parameters: NoParams };
type ShareParam = { query?: never; header?: never; path: { shareId: string }; cookie?: never };

/**
 * The sharing endpoints of the federation contract, in openapi-typescript's shape. They stand in for
 * the generated `paths` until the server's OpenAPI carries them (then `sharingApi` becomes `api`).
 */
export interface SharingPaths {
  "/pro/shared-networks": Path<{
    get: Op<
      SharedNetworkList,
      { query?: { direction?: ShareDirection }; header?: never; path?: never; cookie?: never }
    >;
  }>;
  "/pro/shared-networks/{shareId}": Path<{ delete: Op<void, ShareParam, never, 204> }>;
  "/pro/shared-networks/{shareId}/accept": Path<{ post: Op<AcceptSharedNetworkResult, ShareParam> }>;
  "/pro/shared-networks/{shareId}/reject": Path<{ post: Op<RejectSharedNetworkResult, ShareParam> }>;
  "/pro/sharing/network": Path<{ post: Op<ShareNetworkResult, NoParams, ShareNetworkBody, 201> }>;
  "/pro/sharing/besu-network": Path<{ post: Op<ShareNetworkResult, NoParams, ShareNetworkBody, 201> }>;
  "/pro/sharing/key": Path<{ post: Op<ShareKeyResult, NoParams, ShareKeyBody, 201> }>;
  "/pro/keys/shared-with-me": Path<{
    get: Op<
      SharedKeyList,
      {
        query?: { status?: "active" | "expired"; expired?: "true" | "false"; limit?: number; offset?: number };
        header?: never;
        path?: never;
        cookie?: never;
      }
    >;
  }>;
}

/** The one typed client (same instance, middleware and session) seen through the sharing paths. */
export const sharingApi = api as unknown as Client<SharingPaths>;
