import type { XSource } from "@/data/plugins/types";

export const pluginKeys = {
  all: ["plugins"] as const,
  list: () => [...pluginKeys.all, "list"] as const,
  available: () => [...pluginKeys.all, "available"] as const,
  detail: (name: string) => [...pluginKeys.all, "detail", name] as const,
  status: (name: string) => [...pluginKeys.all, "detail", name, "status"] as const,
  services: (name: string) => [...pluginKeys.all, "detail", name, "services"] as const,
  logs: (name: string, service: string, tail: number) =>
    [...pluginKeys.all, "detail", name, "logs", service, tail] as const,
  validate: (yaml: string) => [...pluginKeys.all, "validate", yaml] as const,
  sources: (type: XSource) => [...pluginKeys.all, "sources", type] as const,
};
