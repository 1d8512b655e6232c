import type { ResponseOf } from "@/api/client";
import type { paths } from "@/api/schema";

/** A Docker engine the console can place nodes on: the local one (id 0) or a registered one. */
export type DockerEngine = ResponseOf<"/docker/engines", "get">["engines"][number];

/** POST /docker/engines body; `tls` only for tcp:// engines started with --tlsverify. */
export type CreateDockerEngineBody = NonNullable<
  paths["/docker/engines"]["post"]
>["requestBody"]["content"]["application/json"];
