import { headerNameProblem, headerValueProblem } from "../net/header_field.ts";

/**
 * Headers no workflow may put in its answer: the webhook URL shares its origin with the web
 * panel, so a cookie set there would be the panel's (README "Security").
 */
const NEVER_RELAYED = new Set(["set-cookie", "set-cookie2"]);

/**
 * The headers of a workflow-authored answer as they are sent: without cookies, and without any
 * header that cannot be sent (a control character, a character past Latin-1, a name that is not
 * a token). The run already ended as the workflow said, so one bad header loses that header,
 * not the whole answer.
 *
 * @example
 * ```ts
 * answerHeaders({ "Set-Cookie": "a=b", "X-Price": "5 €", "X-Order": "7" }); // Headers { "x-order": "7" }
 * ```
 */
export function answerHeaders(authored: Record<string, string>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(authored)) {
    if (NEVER_RELAYED.has(name.toLowerCase()) || headerNameProblem(name) || headerValueProblem(value)) continue;
    try {
      headers.append(name, value);
    } catch {
      // Whatever else the platform refuses: dropped like the rest.
    }
  }
  return headers;
}
