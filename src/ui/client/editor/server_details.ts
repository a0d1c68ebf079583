import type { Field } from "../field.ts";
import type { ValidationDetail } from "../types.ts";
import type { Section } from "./section.ts";

/** The server's validation details of a refused Save, by the field each belongs to; those of no field as text. */
export interface PlacedDetails {
  byField: Map<Field, string[]>;
  unplaced: string[];
}

/** The field a server detail belongs to, and its message as shown there. */
function place(detail: ValidationDetail, name: Field, sections: Section[]): { field: Field; message: string } | null {
  if (detail.path === "/name") return { field: name, message: detail.message };
  for (const s of sections) {
    const f = s.fieldFor(detail.path);
    if (f) return { field: f, message: s.explain?.(detail) ?? detail.message };
  }
  return null;
}

export function placeDetails(details: ValidationDetail[], name: Field, sections: Section[]): PlacedDetails {
  const byField = new Map<Field, string[]>();
  const unplaced: string[] = [];
  for (const d of details) {
    const placed = place(d, name, sections);
    if (placed) byField.set(placed.field, [...(byField.get(placed.field) ?? []), placed.message]);
    else unplaced.push(d.path ? `${d.path}: ${d.message}` : d.message);
  }
  return { byField, unplaced };
}
