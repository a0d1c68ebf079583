/**
 * A script that runs inside QuickJS and sets `globalThis[name]` to an object of functions.
 * Every function takes (and returns) strings, plus compiled units for the unit functions.
 */
export interface GuestProgram {
  readonly name: string;
  readonly source: string;
}

/** Declares a guest program; `source` usually comes from the `bundleGuest` macro. */
export function defineGuest(name: string, source: string): GuestProgram {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) throw new TypeError(`guest program name must be an identifier, got ${JSON.stringify(name)}`);
  return Object.freeze({ name, source });
}

/**
 * Something compiled once inside QuickJS and reused: `program[compile](source)`, e.g. a parsed
 * filter or a trigger's RegExps. The sandbox keeps a bounded LRU of them and recompiles on a
 * miss (eviction, or a rebuild after a crash), so holders only keep this description.
 */
export class GuestUnit {
  constructor(
    readonly program: GuestProgram,
    readonly compile: string,
    readonly source: string,
  ) {
    assertNoNul(source);
  }
}

/**
 * Strings enter QuickJS NUL-terminated, so a U+0000 would cut them short. JSON text never
 * holds one (JSON.stringify escapes it): pass JSON, or check first.
 */
export function assertNoNul(text: string): void {
  if (text.indexOf("\0") !== -1) throw new TypeError("strings passed into the sandbox cannot contain U+0000; pass JSON text");
}
