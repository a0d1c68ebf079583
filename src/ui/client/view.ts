/** A screen of the panel: its element, and what to stop when it is replaced (polling). */
export interface View {
  el: HTMLElement;
  dispose?(): void;
}

/** Navigates to a panel route. */
export function go(hash: string): void {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent("hashchange"));
  else location.hash = hash;
}
