/** A few helpers to build DOM without a framework. */

type Child = Node | string | number | null | undefined | false | Child[];
type AttrValue = string | number | boolean | null | undefined | ((event: any) => void);
export type Attrs = Record<string, AttrValue>;

function append(parent: Node, child: Child): void {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) for (const c of child) append(parent, c);
  else parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
}

function apply(el: Element, attrs: Attrs | null | undefined): void {
  if (!attrs) return;
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === "function") el.addEventListener(key.slice(2).toLowerCase(), value);
    else if (key === "value" || key === "checked") (el as unknown as Record<string, unknown>)[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
}

/** `h("button", { type: "button", onClick }, "Save")` */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

/** The SVG twin of {@link h}. */
export function svg(tag: string, attrs?: Attrs | null, ...children: Child[]): SVGElement {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

let counter = 0;
/** A document-unique id for label/description wiring. */
export const uid = (prefix: string) => `${prefix}-${++counter}`;

export function show(el: HTMLElement, visible: boolean): void {
  el.hidden = !visible;
}

/**
 * An element that is in the document only while it applies: a field that does not apply is
 * removed, not hidden, so it never answers a query by its label. Put `anchor` where it goes.
 */
export interface Conditional {
  anchor: Comment;
  set(present: boolean): void;
}

export function conditional(el: HTMLElement): Conditional {
  const anchor = document.createComment("");
  return {
    anchor,
    set(present) {
      if (!present) el.remove();
      else if (anchor.parentNode && el.previousSibling !== anchor) anchor.after(el);
    },
  };
}

export function replaceChildren(el: Element, ...children: Child[]): void {
  el.textContent = "";
  append(el, children);
}

/** Options of a `<select>`: `[value, label]` pairs. */
export function options(values: ReadonlyArray<readonly [string, string]>, selected?: string): HTMLOptionElement[] {
  return values.map(([value, label]) => {
    const option = h("option", { value }, label);
    if (value === selected) option.selected = true;
    return option;
  });
}

/** Calls `fn` once input has paused for `ms`. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): (...args: A) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args: A) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}
