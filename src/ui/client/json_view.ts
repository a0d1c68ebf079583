import { h } from "./dom.ts";

const MARKER = '"[REDACTED]"';

/** Pretty JSON in a `<pre>`, with redacted values marked so they stand out. */
export function jsonView(value: unknown, label?: string): HTMLPreElement {
  const text = JSON.stringify(value, null, 2) ?? "undefined";
  const pre = h("pre", { class: "json", tabindex: "0", ...(label ? { "aria-label": label } : {}) });
  const pieces = text.split(MARKER);
  pieces.forEach((piece, i) => {
    pre.append(piece);
    if (i < pieces.length - 1) pre.append(h("mark", { class: "redacted" }, MARKER));
  });
  return pre;
}
