import { connect } from "node:net";

/**
 * Sends raw bytes on a fresh socket (no client library, no pooled connection); resolves with what
 * came back before the server closed, the connection failed (a refused connection: ""), or `ms` passed.
 */
export function rawHttp(to: { host: string; port: number }, bytes: string | Uint8Array, ms = 5000): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    const socket = connect(to, () => socket.write(bytes));
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(text);
    };
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
      const head = text.indexOf("\r\n\r\n");
      const length = /content-length: (\d+)/i.exec(text)?.[1];
      if (head !== -1 && length !== undefined && text.length >= head + 4 + Number(length)) done();
    });
    socket.on("close", done);
    socket.on("error", done);
    const timer = setTimeout(done, ms);
  });
}

/** Whether a new connection to `to` is refused outright (ECONNREFUSED), as opposed to accepted, however it is then answered. */
export function connectionRefused(to: { host: string; port: number }, ms = 5000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(to);
    const done = (refused: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(refused);
    };
    socket.on("connect", () => done(false));
    socket.on("error", (error: NodeJS.ErrnoException) => done(error.code === "ECONNREFUSED"));
    const timer = setTimeout(() => done(false), ms);
  });
}
