import type { Field } from "../field.ts";
import type { ValidationDetail } from "../types.ts";

/** One part of the trigger editor. */
export interface Section {
  el: HTMLElement;
  /** This part of the TriggerInput body. */
  value(): Record<string, unknown>;
  /** Checks what can be checked in the browser; returns the first control with a problem, or null. */
  validate(): HTMLElement | null;
  /** The field a server-side `details[].path` belongs to, or null. */
  fieldFor(path: string): Field | null;
  /** How a server-side detail reads on its field, when its path alone does not say enough. */
  explain?(detail: ValidationDetail): string;
  /** Every field of the section, for the error summary. */
  fields: Field[];
  dispose?(): void;
}

/** The sample body shared by the filter test and the redaction preview. */
export interface SampleSource {
  get(): { state: "empty" } | { state: "invalid"; message: string } | { state: "ok"; value: unknown };
  subscribe(listener: () => void): void;
}

/** Runs `validate()` on each section and returns the first problem control. */
export function firstInvalid(sections: Section[]): HTMLElement | null {
  let first: HTMLElement | null = null;
  for (const section of sections) {
    const invalid = section.validate();
    first ??= invalid;
  }
  return first;
}
