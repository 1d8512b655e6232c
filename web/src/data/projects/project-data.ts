import {
  useMutation,
  useQuery,
  useQueryClient,
  type UseMutationResult,
  type UseQueryResult,
} from "@tanstack/react-query";
import { API_BASE, api, unwrap } from "@/api/client";
import { toApiError } from "@/api/errors";
import type { Boilerplate, Project, ProjectCommit, TreeNode } from "@/data/projects/types";

export const projectKeys = {
  all: ["projects"] as const,
  list: () => [...projectKeys.all, "list"] as const,
  detail: (id: number) => [...projectKeys.all, "detail", id] as const,
  tree: (id: number) => [...projectKeys.all, "tree", id] as const,
  file: (id: number, path: string) => [...projectKeys.all, "file", id, path] as const,
  commits: (id: number) => [...projectKeys.all, "commits", id] as const,
  boilerplates: (networkId: number) => [...projectKeys.all, "boilerplates", networkId] as const,
};

async function text(url: string): Promise<string> {
  const res = await fetch(`${API_BASE}${url}`, { credentials: "include" });
  const body = await res.text();
  if (!res.ok) {
    let parsed: unknown = body;
    try {
      parsed = JSON.parse(body);
    } catch {
      // plain text error
    }
    throw toApiError(res.status, parsed);
  }
  return body;
}

export function useProjectsQuery(): UseQueryResult<Project[]> {
  return useQuery({
    queryKey: projectKeys.list(),
    queryFn: async () => (await unwrap(api.GET("/chaincode-projects"))).projects,
  });
}

/** A project; polled every 2 s while it builds. */
export function useProjectQuery(id: number): UseQueryResult<Project> {
  return useQuery({
    queryKey: projectKeys.detail(id),
    queryFn: () => unwrap(api.GET("/chaincode-projects/{id}", { params: { path: { id } } })),
    enabled: Number.isFinite(id),
    refetchInterval: (q) => (q.state.data?.status === "building" ? 2000 : false),
  });
}

export function useBoilerplatesQuery(networkId: number | undefined): UseQueryResult<Boilerplate[]> {
  return useQuery({
    queryKey: projectKeys.boilerplates(networkId ?? 0),
    queryFn: () =>
      unwrap(
        api.GET("/ai/boilerplates", { params: { query: networkId === undefined ? {} : { network_id: networkId } } }),
      ),
  });
}

export function useProjectTreeQuery(id: number): UseQueryResult<TreeNode> {
  return useQuery({
    queryKey: projectKeys.tree(id),
    queryFn: () =>
      unwrap(
        api.GET("/projects/{projectId}/files/entries", { params: { path: { projectId: id } } }),
      ) as Promise<TreeNode>,
  });
}

export function useProjectFileQuery(id: number, path: string | undefined): UseQueryResult<string> {
  return useQuery({
    queryKey: projectKeys.file(id, path ?? ""),
    queryFn: async () =>
      (
        await unwrap(
          api.GET("/projects/{projectId}/files/read", {
            params: { path: { projectId: id }, query: { path: path as string } },
          }),
        )
      ).content,
    enabled: path !== undefined,
    staleTime: Infinity,
  });
}

export function useProjectCommitsQuery(id: number): UseQueryResult<ProjectCommit[]> {
  return useQuery({
    queryKey: projectKeys.commits(id),
    queryFn: async () =>
      (await unwrap(api.GET("/chaincode-projects/{id}/commits", { params: { path: { id }, query: { pageSize: 50 } } })))
        .commits,
  });
}

/** A unified diff of one file between two commits. */
export function fetchProjectDiff(id: number, file: string, from: string, to: string): Promise<string> {
  const q = new URLSearchParams({ file, from, to });
  return text(`/chaincode-projects/${id}/diff?${q}`);
}

export function fetchProjectLog(id: number, tail = 500): Promise<string> {
  return text(`/chaincode-projects/${id}/logs?tail=${tail}`);
}

export function useCreateProjectMutation(): UseMutationResult<
  Project,
  Error,
  { name: string; networkId: number; boilerplate: string; endorsementPolicy?: string; description?: string }
> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body) => unwrap(api.POST("/chaincode-projects", { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: projectKeys.all }),
  });
}

export function useDeleteProjectMutation(): UseMutationResult<void, Error, number> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id) => {
      await unwrap(api.DELETE("/chaincode-projects/{id}", { params: { path: { id } } }));
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: projectKeys.all }),
  });
}

export function useUpdatePolicyMutation(id: number): UseMutationResult<Project, Error, string> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (endorsementPolicy) =>
      unwrap(
        api.PUT("/chaincode-projects/{id}/endorsement-policy", {
          params: { path: { id } },
          body: { endorsementPolicy },
        }),
      ),
    onSuccess: () => qc.invalidateQueries({ queryKey: projectKeys.detail(id) }),
  });
}

/** Start (build, install, run, approve, commit) or stop; both refresh the project and its history. */
export function useRunProjectMutation(id: number): UseMutationResult<unknown, Error, "start" | "stop"> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (action): Promise<unknown> =>
      action === "start"
        ? unwrap(api.POST("/chaincode-projects/{id}/start", { params: { path: { id } } }))
        : unwrap(api.POST("/chaincode-projects/{id}/stop", { params: { path: { id } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: projectKeys.all }),
  });
}

export function useRestoreCommitMutation(id: number): UseMutationResult<ProjectCommit, Error, string> {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (commitHash) =>
      unwrap(
        api.POST("/chaincode-projects/{id}/commits/{commitHash}/restore", { params: { path: { id, commitHash } } }),
      ),
    onSuccess: () => qc.invalidateQueries({ queryKey: projectKeys.all }),
  });
}

export async function writeProjectFile(id: number, path: string, content: string): Promise<void> {
  await unwrap(
    api.POST("/projects/{projectId}/files/write", { params: { path: { projectId: id } }, body: { path, content } }),
  );
}
export async function deleteProjectFile(id: number, path: string): Promise<void> {
  await unwrap(
    api.DELETE("/projects/{projectId}/files/delete", { params: { path: { projectId: id }, query: { path } } }),
  );
}
export async function createProjectDir(id: number, dir: string): Promise<void> {
  await unwrap(api.POST("/projects/{projectId}/dirs/create", { params: { path: { projectId: id } }, body: { dir } }));
}
export async function deleteProjectDir(id: number, dir: string): Promise<void> {
  await unwrap(
    api.DELETE("/projects/{projectId}/dirs/delete", { params: { path: { projectId: id }, query: { dir } } }),
  );
}
