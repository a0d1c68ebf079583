import { wholeNumberProblem } from "../field.ts";

/** A destination group's own text, as typed, for the checks the browser can make. */
export interface DestinationText {
  name: string;
  rateLimit: string;
  concurrency: string;
  transform: string;
  /** Its Response mode is Workflow. */
  answers: boolean;
}

/** What is wrong with each field of one group (null: nothing). */
export interface DestinationProblems {
  name: string | null;
  rateLimit: string | null;
  concurrency: string | null;
  transform: string | null;
  answers: string | null;
}

const NAME = /^[a-z0-9-]{1,40}$/;
export const MAX_TRANSFORM_CHARS = 65_536;

function nameProblem(name: string, earlier: string[]): string | null {
  if (name === "") return "Enter a name: lower-case letters, digits and hyphens, for example crm.";
  if (!NAME.test(name)) return "Use lower-case letters, digits and hyphens only, at most 40, for example crm.";
  if (earlier.includes(name)) return `Another destination is named ${name}: names are unique in a trigger.`;
  return null;
}

/** Run starts per second: a number from 0.01 to 10000, or empty for no limit. */
function rateProblem(text: string): string | null {
  const t = text.trim();
  if (t === "") return null;
  const n = Number(t);
  return Number.isFinite(n) && n >= 0.01 && n <= 10_000
    ? null
    : "Enter run starts per second, from 0.01 to 10000 (0.5: one every 2 seconds), or leave it empty.";
}

/**
 * The problems of every group, in order: names unique across groups (the later of two is
 * flagged) and at most one group answering the caller, besides each field's own range.
 */
export function destinationProblems(groups: DestinationText[]): DestinationProblems[] {
  const names: string[] = [];
  let answering: string | null = null;
  return groups.map((g) => {
    const name = g.name.trim();
    const problems: DestinationProblems = {
      name: nameProblem(name, names),
      rateLimit: rateProblem(g.rateLimit),
      concurrency: wholeNumberProblem(g.concurrency, 1, 64, { orEmpty: true }),
      transform:
        g.transform.length > MAX_TRANSFORM_CHARS ? `A transform can be at most ${MAX_TRANSFORM_CHARS} characters; this one has ${g.transform.length}.` : null,
      answers: null,
    };
    names.push(name);
    if (g.answers && answering !== null)
      problems.answers = `Only one destination answers the caller, and ${answering} already does: set this one to Immediate.`;
    else if (g.answers) answering = name || "another destination";
    return problems;
  });
}
