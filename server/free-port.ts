import fs from "node:fs";
import net from "node:net";

/**
 * The ports the system gives out on its own: to a listener asking for port 0, and as the source
 * port of every outgoing connection (Linux: /proc/sys/net/ipv4/ip_local_port_range).
 */
function systemPorts(): [number, number] {
  try {
    const [low, high] = fs
      .readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8")
      .trim()
      .split(/\s+/)
      .map(Number);
    if (low && high) return [low, high];
  } catch {
    // not Linux: the range IANA suggests, which most systems use
  }
  return [49152, 65535];
}

function listenOn(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", () => resolve(undefined));
    probe.listen(port, "127.0.0.1", () => {
      const { port: bound } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(bound));
    });
  });
}

const LOWEST = 10_000;

/**
 * A TCP port on the loopback interface that nothing listens on at the moment of asking, for a
 * process that listens on it a moment later (the embedded PostgreSQL, a test's shop). It is
 * chosen below the ports the system gives out on its own: one of those can be taken in that
 * moment as the source port of any outgoing connection (a restarted test shop once found its
 * port in use that way). Port 0 is the fallback where there is no room below that range.
 */
export async function freePort(): Promise<number> {
  const [low] = systemPorts();
  for (let attempt = 0; low - LOWEST > 1000 && attempt < 20; attempt++) {
    const port = await listenOn(LOWEST + Math.floor(Math.random() * (low - LOWEST)));
    if (port) return port;
  }
  const port = await listenOn(0);
  if (!port) throw new Error("no free TCP port on 127.0.0.1");
  return port;
}
