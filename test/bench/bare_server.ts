/** The ceiling: bare Bun.serve reading a POST body as bytes and answering a small JSON. */
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(process.env.PORT ?? 0),
  async fetch(request) {
    const body = await request.arrayBuffer();
    return Response.json({ received: true, bytes: body.byteLength });
  },
});
console.log(`bare listening on http://127.0.0.1:${server.port}`);
