import { Fragment, type ReactElement } from "react";
import { parseBlocks, parseInline } from "@/components/markdown/markdown";

function Inlines({ text }: { text: string }): ReactElement {
  return (
    <>
      {parseInline(text).map((n, i) =>
        n.kind === "code" ? (
          <code key={i} className="rounded bg-muted px-1 py-0.5 font-mono text-[0.85em]">
            {n.text}
          </code>
        ) : n.kind === "bold" ? (
          <strong key={i}>{n.text}</strong>
        ) : n.kind === "link" ? (
          <a key={i} href={n.href} target="_blank" rel="noreferrer noopener" className="text-primary underline">
            {n.text}
          </a>
        ) : (
          <Fragment key={i}>{n.text}</Fragment>
        ),
      )}
    </>
  );
}

/** A README rendered from the Markdown subset of `markdown.ts`, as elements (no HTML is injected). */
export function Markdown({ source, ...rest }: { source: string; "data-testid"?: string }): ReactElement {
  return (
    <div className="space-y-3 text-sm leading-relaxed break-words" {...rest}>
      {parseBlocks(source).map((b, i) => {
        if (b.kind === "heading") {
          const cls =
            b.level === 1 ? "text-lg font-semibold" : b.level === 2 ? "text-base font-semibold" : "font-medium";
          const Tag = b.level === 1 ? "h2" : b.level === 2 ? "h3" : "h4";
          return (
            <Tag key={i} className={cls}>
              <Inlines text={b.text} />
            </Tag>
          );
        }
        if (b.kind === "list") {
          const Tag = b.ordered ? "ol" : "ul";
          return (
            <Tag key={i} className={b.ordered ? "list-decimal space-y-1 pl-5" : "list-disc space-y-1 pl-5"}>
              {b.items.map((item, j) => (
                <li key={j}>
                  <Inlines text={item} />
                </li>
              ))}
            </Tag>
          );
        }
        if (b.kind === "code") {
          return (
            <pre key={i} className="overflow-x-auto rounded-lg bg-muted p-3 font-mono text-xs">
              {b.text}
            </pre>
          );
        }
        return (
          <p key={i}>
            <Inlines text={b.text} />
          </p>
        );
      })}
    </div>
  );
}
