import { Elysia } from "elysia";
import { PANEL_ICON, panelPage } from "./page.ts";

// The page talks only to its own origin; nothing is fetched from elsewhere.
const SECURITY_HEADERS = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
};

interface Assets {
  page: string;
  script: string;
  styles: string;
}

let loaded: Promise<Assets> | null = null;

// Loaded on first use, so CLI commands that open the server module never pay for the bundle.
function assets(): Promise<Assets> {
  return (loaded ??= import("./assets.ts").then(({ PANEL_SCRIPT, PANEL_STYLES }) => {
    const version = { script: Bun.hash(PANEL_SCRIPT).toString(36), styles: Bun.hash(PANEL_STYLES).toString(36) };
    return { page: panelPage(version), script: PANEL_SCRIPT, styles: PANEL_STYLES };
  }));
}

const send = (body: string, type: string, cache: string) =>
  new Response(body, { headers: { "Content-Type": type, "Cache-Control": cache, ...SECURITY_HEADERS } });

// Asset URLs carry a content hash (`?v=`), so browsers may keep them; the page itself is revalidated.
const IMMUTABLE = "public, max-age=31536000, immutable";

/** The web panel (docs/api.md#the-web-panel): the page at `/`, its assets under `/ui/`. The page itself is public; its API calls carry the admin token. */
export function panelRoutes() {
  return new Elysia({ name: "inlet-panel" })
    .get("/", async () => send((await assets()).page, "text/html; charset=utf-8", "no-cache"))
    .get("/ui/app.js", async () => send((await assets()).script, "text/javascript; charset=utf-8", IMMUTABLE))
    .get("/ui/app.css", async () => send((await assets()).styles, "text/css; charset=utf-8", IMMUTABLE))
    .get("/ui/icon.svg", () => send(PANEL_ICON, "image/svg+xml", "public, max-age=86400"));
}
