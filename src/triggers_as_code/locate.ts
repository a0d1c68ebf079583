/** The pointer to `key` inside the value at `pointer` (RFC 6901 escaping). */
export const pointerChild = (pointer: string, key: string) => `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;

/** How errors name the trigger at `index`: its name, or its place in the list when it has none. */
export function triggerLabel(raw: unknown, index: number): string {
  const name = raw !== null && typeof raw === "object" ? (raw as { name?: unknown }).name : undefined;
  return typeof name === "string" && name.trim() !== "" ? name : `triggers[${index}]`;
}

/**
 * A pointer into the file as an error reports it: `/triggers/3/auth/secret` is the trigger's
 * label and `/auth/secret`; a pointer outside the triggers stays a path in the file.
 */
export function locate(document: unknown, pointer: string): { trigger?: string; path?: string } {
  const found = /^\/triggers\/(\d+)(\/.*)?$/.exec(pointer);
  const triggers = document !== null && typeof document === "object" ? (document as { triggers?: unknown }).triggers : undefined;
  if (found && Array.isArray(triggers) && Number(found[1]) < triggers.length) {
    const index = Number(found[1]);
    return { trigger: triggerLabel(triggers[index], index), ...(found[2] ? { path: found[2] } : {}) };
  }
  return pointer ? { path: pointer } : {};
}
