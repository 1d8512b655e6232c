import { ChevronRightIcon } from "lucide-react";
import { Fragment, type ReactElement } from "react";
import { Link, useLocation } from "react-router";
import { breadcrumbsFor } from "@/app/breadcrumbs";

/** Header breadcrumbs; all but the last are links. */
export function Breadcrumbs(): ReactElement {
  const { pathname } = useLocation();
  const crumbs = breadcrumbsFor(pathname);
  return (
    <nav aria-label="Breadcrumb" className="min-w-0">
      <ol className="flex min-w-0 items-center gap-1.5 text-sm text-muted-foreground">
        {crumbs.map((c, i) => {
          const last = i === crumbs.length - 1;
          return (
            <Fragment key={c.href}>
              {i > 0 && <ChevronRightIcon className="hidden size-3.5 shrink-0 sm:block" aria-hidden />}
              <li className={last ? "truncate font-medium text-foreground" : "hidden truncate sm:block"}>
                {last ? (
                  <span aria-current="page">{c.label}</span>
                ) : (
                  <Link to={c.href} className="hover:text-foreground">
                    {c.label}
                  </Link>
                )}
              </li>
            </Fragment>
          );
        })}
      </ol>
    </nav>
  );
}
