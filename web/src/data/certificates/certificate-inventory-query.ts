import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { certificateKeys } from "@/data/certificates/keys";
import { decodeCertificate } from "@/lib/certificates/decode";
import { collectCertificates, sortByExpiry, type InventoryEntry } from "@/lib/certificates/inventory";

/** Each list is read as one page of the API's largest size, so the inventory costs three requests. */
export const INVENTORY_PAGE = 1000;

export interface CertificateInventory {
  /** Soonest expiry first. */
  entries: InventoryEntry[];
  /** Certificates found that the browser could not parse. */
  undecodable: number;
  /** True when a list had more than one page: the inventory shows the first page of each. */
  truncated: boolean;
}

/**
 * Every certificate the console holds that the API shows (Fabric nodes' sign and TLS certificates,
 * organizations' CAs, keys with certificates), decoded in the browser and sorted by expiry.
 */
export function useCertificateInventoryQuery(): UseQueryResult<CertificateInventory> {
  return useQuery({
    queryKey: certificateKeys.inventory(),
    queryFn: async () => {
      const [nodes, orgs, keys] = await Promise.all([
        unwrap(api.GET("/nodes", { params: { query: { page: 1, limit: INVENTORY_PAGE, platform: "FABRIC" } } })),
        unwrap(api.GET("/organizations", { params: { query: { limit: INVENTORY_PAGE, offset: 0 } } })),
        unwrap(api.GET("/keys", { params: { query: { page: 1, pageSize: INVENTORY_PAGE } } })),
      ]);
      const sources = collectCertificates({ nodes: nodes.items, organizations: orgs.items, keys: keys.items });
      const decoded = await Promise.all(
        sources.map(async (s): Promise<InventoryEntry | null> => {
          try {
            const c = await decodeCertificate(s.pem);
            return { ...s, subject: c.subject, notBefore: c.notBefore, notAfter: c.notAfter };
          } catch {
            return null;
          }
        }),
      );
      const entries = decoded.filter((e): e is InventoryEntry => e !== null);
      return {
        entries: sortByExpiry(entries),
        undecodable: decoded.length - entries.length,
        truncated: nodes.hasNextPage || orgs.count > orgs.items.length || keys.totalItems > keys.items.length,
      };
    },
    staleTime: 60_000,
  });
}
