import { h, replaceChildren } from "../dom.ts";
import type { Field } from "../field.ts";

/** The list of what stopped a Save, at the top of the form: each field's message is a button to that field. */
export interface ErrorSummary {
  el: HTMLElement;
  /** Lists the fields of `fields` with a message, then `extra` (problems of no field); hidden when there are none. */
  show(fields: Field[], extra?: string[]): void;
  hide(): void;
}

export function errorSummary(): ErrorSummary {
  const el = h("div", { class: "error-summary", role: "alert", tabindex: "-1", hidden: true });
  return {
    el,
    show(fields, extra = []) {
      const invalid = fields.filter((f) => f.error());
      if (invalid.length === 0 && extra.length === 0) {
        el.hidden = true;
        return;
      }
      replaceChildren(
        el,
        h("p", { class: "summary-title" }, "The trigger was not saved:"),
        h(
          "ul",
          null,
          invalid.map((f) =>
            h("li", null, h("button", { type: "button", class: "link-button", onClick: () => f.control.focus() }, `${f.label}: ${f.error()}`)),
          ),
          extra.map((message) => h("li", null, message)),
        ),
      );
      el.hidden = false;
    },
    hide() {
      el.hidden = true;
    },
  };
}
