import type { paths } from "@/api/schema";
import type { ResponseOf } from "@/api/client";

export type NotificationProvider = ResponseOf<"/notifications/providers/{id}", "get">;
export type ProviderBody = NonNullable<
  paths["/notifications/providers"]["post"]
>["requestBody"]["content"]["application/json"];
export type ProviderTestResult = ResponseOf<"/notifications/providers/{id}/test", "post">;

export const providerKeys = {
  all: ["notification-providers"] as const,
  list: () => [...providerKeys.all, "list"] as const,
  detail: (id: number) => [...providerKeys.all, "detail", id] as const,
};
