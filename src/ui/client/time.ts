import { h } from "./dom.ts";

/**
 * One way to write a moment everywhere in the panel: local date and 24-hour time to the second,
 * `2026-11-25 14:03:07`, the same in every browser locale so rows line up and compare at a
 * glance. The exact instant (ISO 8601, UTC) is in the `<time>` element's `datetime` and `title`.
 */
export function formatTime(at: string | Date): string {
  const d = typeof at === "string" ? new Date(at) : at;
  if (Number.isNaN(d.getTime())) return String(at);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${formatClock(d, true)}`;
}

/** Local 24-hour time of day, `14:03` (or `14:03:07` with seconds): the chart's minutes. */
export function formatClock(d: Date, seconds = false): string {
  return `${pad(d.getHours())}:${pad(d.getMinutes())}${seconds ? `:${pad(d.getSeconds())}` : ""}`;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A `<time>` showing {@link formatTime}, with the exact ISO instant as its `datetime` and tooltip; "—" for none. */
export function timeEl(iso: string | null): HTMLElement | string {
  if (!iso) return "—";
  const exact = new Date(iso);
  const full = Number.isNaN(exact.getTime()) ? iso : exact.toISOString();
  return h("time", { datetime: full, title: full }, formatTime(iso));
}
