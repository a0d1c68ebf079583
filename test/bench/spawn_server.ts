/**
 * The ceiling of a command per request in Bun: bare Bun.serve doing what adnanh/webhook does and
 * nothing more — check the body's HMAC-SHA256 in `X-Signature`, run `/bin/true` (stdout captured,
 * nothing on stdin, nothing stored), answer with its output. No durability, no run record.
 * Env: SECRET (the HMAC key), PORT (0 = any).
 */
import { createHmac, timingSafeEqual } from "node:crypto";

const secret = process.env.SECRET ?? "";
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.PORT ?? 0),
  async fetch(request) {
    const body = new Uint8Array(await request.arrayBuffer());
    const given = Buffer.from((request.headers.get("x-signature") ?? "").replace(/^sha256=/, ""), "hex");
    const expected = createHmac("sha256", secret).update(body).digest();
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return new Response("bad signature", { status: 401 });
    const proc = Bun.spawn(["/bin/true"], { stdin: "ignore", stdout: "pipe", stderr: "ignore" });
    const [output, code] = await Promise.all([new Response(proc.stdout).arrayBuffer(), proc.exited]);
    return new Response(output, { status: code === 0 ? 200 : 500 });
  },
});
console.log(`spawn listening on http://127.0.0.1:${server.port}`);
