import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { addJobBody, jobNameParams, jobsResponse } from "./metrics-jobs.schema.js";
import type { MetricsJobsService } from "./metrics-jobs.service.js";
import { messageResponse } from "./metrics.schema.js";

const tags = ["Metrics"];

/** /metrics/job/add, /metrics/jobs, DELETE /metrics/job/{jobName}: the operator's custom scrape jobs. */
export function registerMetricsJobsRoutes(app: FastifyInstance, svc: MetricsJobsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    "/metrics/job/add",
    {
      config: { access: "METRICS_CONFIG", audit: "metrics_job.create" },
      schema: {
        operationId: "addGenericJob",
        tags,
        summary: "Add a custom scrape job to the managed Prometheus's configuration and reload it",
        description:
          "Stored, and applied whenever Prometheus is deployed. A name a node, a running plugin or another custom job " +
          "has is a 409 naming job_name.",
        body: addJobBody,
        response: { 200: messageResponse },
      },
    },
    async (req) => {
      const res = await svc.add(req.body);
      req.auditInfo.resource = `metrics_job:${req.body.job_name}`;
      req.auditInfo.details = { targets: req.body.targets ?? [] };
      return res;
    },
  );
  r.get(
    "/metrics/jobs",
    {
      config: { access: "METRICS_READ" },
      schema: {
        operationId: "listJobs",
        tags,
        summary: "Every scrape job (nodes, plugins, custom) by name, with Prometheus's view of its targets",
        response: { 200: jobsResponse },
      },
    },
    async () => svc.list(),
  );
  r.delete(
    "/metrics/job/:jobName",
    {
      config: { access: "METRICS_CONFIG", audit: "metrics_job.delete" },
      schema: {
        operationId: "removeGenericJob",
        tags,
        summary: "Remove a custom scrape job and reload Prometheus",
        description: "A node's or plugin's job is a 409 (the console manages those); an unknown name is a 404.",
        params: jobNameParams,
        response: { 200: messageResponse },
      },
    },
    async (req) => {
      req.auditInfo.resource = `metrics_job:${req.params.jobName}`;
      return svc.remove(req.params.jobName);
    },
  );
}
