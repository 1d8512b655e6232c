import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { decodeCertificate, type DecodedCertificate } from "@/lib/certificates/decode";

/** Decodes a PEM certificate in the browser; cached forever by its text. */
export function useDecodedCertificate(pem: string | null | undefined): UseQueryResult<DecodedCertificate> {
  return useQuery({
    queryKey: ["certificate", pem],
    queryFn: () => decodeCertificate(pem ?? ""),
    enabled: Boolean(pem),
    staleTime: Infinity,
    gcTime: 5 * 60_000,
  });
}
