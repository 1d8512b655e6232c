import { useEffect, useRef, type RefObject } from "react";

/**
 * Marks a horizontally scrolling element with `data-overflow` = `none`, `start`, `end` or `both`
 * (which sides hold hidden content), kept current on scroll and resize. Touch screens and headless
 * browsers show no scrollbar, so the attribute drives a fade on the hidden side: the sign that a tab
 * strip or a table goes on.
 */
export function useOverflowEdges<T extends HTMLElement>(): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = (): void => {
      const start = el.scrollLeft > 1;
      const end = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      el.dataset.overflow = start && end ? "both" : start ? "start" : end ? "end" : "none";
    };
    update();
    el.addEventListener("scroll", update, { passive: true });
    const ro = new ResizeObserver(update);
    ro.observe(el);
    for (const child of Array.from(el.children)) ro.observe(child);
    return () => {
      el.removeEventListener("scroll", update);
      ro.disconnect();
    };
  }, []);
  return ref;
}

/** The fade on the hidden side(s), for an element using `useOverflowEdges`. */
export const OVERFLOW_FADE =
  "data-[overflow=end]:[mask-image:linear-gradient(to_right,black_calc(100%-2.5rem),transparent)] " +
  "data-[overflow=start]:[mask-image:linear-gradient(to_left,black_calc(100%-2.5rem),transparent)] " +
  "data-[overflow=both]:[mask-image:linear-gradient(to_right,transparent,black_2.5rem,black_calc(100%-2.5rem),transparent)]";
