/** The downstream of the end-to-end benchmark: answers every POST at once and counts them (GET /count). */
let deliveries = 0;
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.PORT ?? 0),
  async fetch(request) {
    if (request.method === "GET") return Response.json({ deliveries });
    await request.arrayBuffer();
    deliveries++;
    return Response.json({ ok: true });
  },
});
console.log(`target listening on http://127.0.0.1:${server.port}`);
export {};
