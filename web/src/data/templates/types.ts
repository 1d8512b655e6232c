import type { ResponseOf } from "@/api/client";
import type { paths } from "@/api/schema";

/** A node template as the server returns it. */
export type Template = ResponseOf<"/templates/{id}", "get">;
export type TemplateVariable = Template["variables"][number];
export type CreateTemplateBody = NonNullable<paths["/templates"]["post"]>["requestBody"]["content"]["application/json"];
export type UpdateTemplateBody = NonNullable<
  paths["/templates/{id}"]["put"]
>["requestBody"]["content"]["application/json"];
export type TemplateExport = ResponseOf<"/templates/{id}/export", "get">;
export type ImportTemplateBody = NonNullable<
  paths["/templates/import"]["post"]
>["requestBody"]["content"]["application/json"];
export type TemplatePlatform = CreateTemplateBody["platform"];
export type TemplateNodeType = CreateTemplateBody["node_type"];

export const TEMPLATE_PLATFORMS: readonly TemplatePlatform[] = [
  "FABRIC",
  "BESU",
  "ETHEREUM",
  "BITCOIN",
  "POLKADOT",
  "COSMOS",
];
export const TEMPLATE_NODE_TYPES: readonly TemplateNodeType[] = [
  "peer",
  "orderer",
  "fabric_network",
  "fullnode",
  "validator",
  "archive",
  "besu_network",
  "bootstrap",
  "relay",
  "collator",
  "sentry",
];

/** Whether applying the template gives a POST /nodes body (the console runs the node). */
export function makesNode(t: Pick<Template, "platform" | "node_type">): boolean {
  if (t.platform === "FABRIC") return t.node_type === "peer" || t.node_type === "orderer";
  return t.platform === "BESU" && ["fullnode", "validator", "archive", "bootstrap"].includes(t.node_type);
}
