/**
 * A one-line explanation of why PostgreSQL could not be used at start: what failed, where (the
 * host and port, or the database), and what to do. Never includes the password.
 */
export function describeConnectError(error: unknown, url: string): string {
  const e = error as { code?: string; errno?: string; message?: string } | null;
  let where = "the server";
  let database = "the database";
  try {
    const parsed = new URL(url);
    where = `${parsed.hostname}:${parsed.port || "5432"}`;
    database = `database ${JSON.stringify(decodeURIComponent(parsed.pathname.slice(1)) || parsed.username)} as user ${JSON.stringify(decodeURIComponent(parsed.username))}`;
  } catch {
    // An unparseable URL is refused by the flag's own check before this.
  }
  const reason = e?.message || e?.code || String(error);
  switch (e?.code === "ERR_POSTGRES_CONNECTION_REFUSED" || e?.code === "ERR_POSTGRES_CONNECTION_TIMEOUT" ? e.code : e?.errno) {
    case "ERR_POSTGRES_CONNECTION_REFUSED":
    case "ERR_POSTGRES_CONNECTION_TIMEOUT":
      return `could not connect to ${where} (${reason}): check that PostgreSQL is running there and reachable from this machine, and the URL's host and port`;
    case "28P01":
    case "28000":
      return `${where} refused ${database} (${reason}): check the user and password in the URL (and pg_hba.conf)`;
    case "3D000":
      return `${where} has no such database (${reason}): create it first (createdb), or fix the URL's database name`;
    default:
      return `${reason} (connecting to ${where})`;
  }
}
