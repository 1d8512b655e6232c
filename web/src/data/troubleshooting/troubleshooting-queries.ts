import { useMutation, useQuery, type UseMutationResult, type UseQueryResult } from "@tanstack/react-query";
import { troubleshootingKeys } from "@/data/troubleshooting/keys";
import {
  fetchPublicIp,
  testConnection,
  validateCertificate,
  type CertificateValidation,
  type CertificateValidationRequest,
  type ConnectionTestRequest,
  type ConnectionTestResult,
  type PublicIp,
} from "@/data/troubleshooting/troubleshooting-api";

/** The console's public address (asked once per visit: a lookup service may be configured). */
export function usePublicIpQuery(): UseQueryResult<PublicIp> {
  return useQuery({ queryKey: troubleshootingKeys.publicIp(), queryFn: fetchPublicIp, staleTime: 60_000 });
}

/** One connection test; the screen shows failures inline (429 and 401 have their own words), so no toast. */
export function useTestConnectionMutation(): UseMutationResult<ConnectionTestResult, Error, ConnectionTestRequest> {
  return useMutation({ mutationFn: testConnection, meta: { silent: true } });
}

export function useValidateCertificateMutation(): UseMutationResult<
  CertificateValidation,
  Error,
  CertificateValidationRequest
> {
  return useMutation({ mutationFn: validateCertificate, meta: { silent: true } });
}
