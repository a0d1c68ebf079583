import { jsonResponse } from "../../net/answers.ts";

/** 404 `{"error":"<what> not found"}`: an id the API does not know. */
export const notFound = (what: string) => jsonResponse(404, { error: `${what} not found` });
