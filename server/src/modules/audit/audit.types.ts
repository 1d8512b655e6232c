/** Every audit event type the server records. A contract: add, never rename. */
export const AUDIT_EVENT_TYPES = [
  "auth.login",
  "auth.logout",
  "auth.password_change",
  "permission.denied",
  "user.create",
  "user.update",
  "user.password_reset",
  "user.delete",
  "api_key.create",
  "api_key.revoke",
  "settings.update",
  "notification.read",
  "notification.unread",
  "notification.read_all",
  "notification.delete",
  "notification.test",
  "besu_network.create",
  "besu_network.import",
  "besu_network.delete",
  "besu_network.bulk_create",
  "node.qbft_vote",
  "node.qbft_vote_discard",
  "node.contract_deploy",
  "node.contract_call",
  "node.contract_send",
  "key_provider.create",
  "key_provider.delete",
  "key.create",
  "key.delete",
  "key.sign",
  "organization.create",
  "organization.update",
  "organization.delete",
  "organization.key_create",
  "organization.key_delete",
  "organization.key_renew",
  "organization.certificate_revoke",
  "organization.revocation_delete",
  "node.create",
  "node.update",
  "node.delete",
  "node.start",
  "node.stop",
  "node.restart",
  "node.certificates_renew",
  "organization.msp_export",
  "chaincode.create",
  "chaincode.delete",
  "chaincode.invoke",
  "chaincode.query",
  "chaincode.definition.create",
  "chaincode.definition.update",
  "chaincode.definition.delete",
  "chaincode.definition.source",
  "chaincode.definition.install",
  "chaincode.definition.approve",
  "chaincode.definition.commit",
  "chaincode.definition.deploy",
  "chaincode.definition.undeploy",
  "chaincode_project.create",
  "chaincode_project.delete",
  "chaincode_project.update_policy",
  "chaincode_project.write_file",
  "chaincode_project.delete_file",
  "chaincode_project.create_dir",
  "chaincode_project.delete_dir",
  "chaincode_project.start",
  "chaincode_project.stop",
  "chaincode_project.invoke",
  "chaincode_project.query",
  "chaincode_project.restore",
  "fabric_network.create",
  "fabric_network.delete",
  "fabric_network.import",
  "fabric_network.add_node",
  "fabric_network.join_peer",
  "fabric_network.unjoin_peer",
  "fabric_network.remove_peer",
  "fabric_network.remove_orderer",
  "fabric_network.join_orderer",
  "fabric_network.unjoin_orderer",
  "fabric_network.anchor_peers",
  "fabric_network.update_config",
  "fabric_network.organization_crl",
] as const;

export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];
export type AuditOutcome = "SUCCESS" | "FAILURE";
export type AuditSeverity = "INFO" | "WARNING" | "CRITICAL";

export interface AuditRecord {
  eventType: AuditEventType;
  outcome: AuditOutcome;
  severity?: AuditSeverity;
  source?: "api" | "system" | "websocket";
  userId?: number | null;
  username?: string | null;
  sourceIp?: string | null;
  requestId?: string | null;
  sessionId?: string | null;
  resource?: string | null;
  details?: Record<string, unknown>;
}
