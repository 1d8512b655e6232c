import { PassThrough } from "node:stream";
import type { FastifyReply } from "fastify";
import { followLog, readLastLines } from "../runtime/index.js";

/**
 * Answers with a log file: its last `tail` lines, or (when following) those and then each new line
 * as it is written, as plain text or as Server-Sent Events. Following ends when the client goes.
 */
export async function sendLogFile(
  reply: FastifyReply,
  file: string,
  opts: { tail: number; follow: boolean; sse: boolean },
): Promise<FastifyReply> {
  reply.type(opts.sse ? "text/event-stream; charset=utf-8" : "text/plain; charset=utf-8");
  if (!opts.follow) {
    const lines = await readLastLines(file, opts.tail).catch(() => [] as string[]);
    return reply.send(lines.length ? `${lines.join("\n")}\n` : "");
  }
  const stream = new PassThrough();
  const follower = await followLog(file, {
    tailLines: opts.tail,
    onLines: (l) => stream.write(opts.sse ? l.map((line) => `data: ${line}\n\n`).join("") : `${l.join("\n")}\n`),
  });
  reply.raw.on("close", () => {
    follower.stop();
    stream.end();
  });
  reply.header("cache-control", "no-cache");
  return reply.send(stream as unknown as string);
}
