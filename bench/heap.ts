// The server's JavaScript heap during a soak, read through Node's inspector (the server runs with
// `--inspect` on a port of the benchmark's choosing): heap figures every sample, and heap
// snapshots written to files and compared by what their objects are (constructor or kind), so a
// growth of memory can be told apart from a heap that filled to its working size; and the
// process's resident memory.
import fs from "node:fs";

/**
 * A process's resident memory in MB from Linux's /proc (NaN where that is not readable):
 * `VmRSS` now, or `VmHWM` for its peak so far.
 */
export function rssMegabytes(pid: number | undefined, field: "VmRSS" | "VmHWM" = "VmRSS") {
  try {
    const line = fs
      .readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((l) => l.startsWith(`${field}:`));
    return Number(line?.split(/\s+/)[1]) / 1024;
  } catch {
    return NaN;
  }
}

export type HeapFigures = { heapUsedMb: number; heapTotalMb: number; externalMb: number };

/** One inspector session on a Node process started with `--inspect=127.0.0.1:<port>`. */
export async function inspect(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  let nextId = 1;
  const waiting = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
  let onChunk: ((chunk: string) => void) | null = null;
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data));
    if (message.method === "HeapProfiler.addHeapSnapshotChunk") onChunk?.(message.params.chunk);
    else if (message.id) waiting.get(message.id)?.(message);
  });
  const call = <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, (message) => {
        waiting.delete(id);
        if (message.error) reject(new Error(`${method}: ${JSON.stringify(message.error)}`));
        else resolve(message.result as T);
      });
      socket.send(JSON.stringify({ id, method, params }));
    });
  await call("HeapProfiler.enable");

  return {
    /** The process's `process.memoryUsage()`, in megabytes. */
    async figures(): Promise<HeapFigures> {
      const { result } = await call<{ result: { value: string } }>("Runtime.evaluate", {
        expression: "JSON.stringify(process.memoryUsage())",
        returnByValue: true,
      });
      const usage = JSON.parse(result.value) as NodeJS.MemoryUsage;
      const mb = (bytes: number) => bytes / 1024 / 1024;
      return {
        heapUsedMb: mb(usage.heapUsed),
        heapTotalMb: mb(usage.heapTotal),
        externalMb: mb(usage.external),
      };
    },
    /** Writes a heap snapshot (after a full garbage collection, as V8 takes them) to `file`. */
    async snapshot(file: string) {
      const out = fs.openSync(file, "w");
      onChunk = (chunk) => fs.writeSync(out, chunk);
      try {
        await call("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
      } finally {
        onChunk = null;
        fs.closeSync(out);
      }
    },
    close() {
      socket.close();
    },
  };
}

/** Objects of one kind in a snapshot: how many, and their own bytes. */
export type HeapKind = { kind: string; count: number; bytes: number };

/**
 * A heap snapshot summed by kind of object: objects, closures and native objects by their
 * constructor's name, everything else (strings, code, arrays of V8's own…) by V8's node type.
 * Reads the file as bytes, so snapshots larger than a JavaScript string can be are read too.
 */
export function summarize(file: string): Map<string, HeapKind> {
  const bytes = fs.readFileSync(file);
  const nodesAt = bytes.indexOf('"nodes":[');
  const meta = JSON.parse(
    bytes.subarray(bytes.indexOf("{"), nodesAt).toString().trim().replace(/,$/, "") + "}",
  ).snapshot.meta as { node_fields: string[]; node_types: [string[]] };
  const stringsAt = bytes.lastIndexOf('"strings":[');
  const strings = JSON.parse(
    bytes.subarray(stringsAt + '"strings":'.length, bytes.lastIndexOf("]") + 1).toString(),
  ) as string[];
  const fields = meta.node_fields.length;
  const typeField = meta.node_fields.indexOf("type");
  const nameField = meta.node_fields.indexOf("name");
  const sizeField = meta.node_fields.indexOf("self_size");
  const types = meta.node_types[0];
  const named = new Set(["object", "closure", "native", "regexp"]);
  const kinds = new Map<string, HeapKind>();
  // The nodes array is integers only: read them straight from the bytes.
  const end = bytes.indexOf("]", nodesAt);
  const node: number[] = [];
  let value = 0;
  let inNumber = false;
  for (let at = nodesAt + '"nodes":['.length; at <= end; at++) {
    const byte = bytes[at]!;
    if (byte >= 48 && byte <= 57) {
      value = value * 10 + (byte - 48);
      inNumber = true;
      continue;
    }
    if (!inNumber) continue;
    node.push(value);
    value = 0;
    inNumber = false;
    if (node.length < fields) continue;
    const type = types[node[typeField]!] ?? "?";
    const kind = named.has(type) ? strings[node[nameField]!]! : `(${type})`;
    const entry = kinds.get(kind) ?? { kind, count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += node[sizeField]!;
    kinds.set(kind, entry);
    node.length = 0;
  }
  return kinds;
}

/** What grew from one snapshot to the next, largest growth in bytes first. */
export function compare(before: Map<string, HeapKind>, after: Map<string, HeapKind>) {
  const rows = [...new Set([...before.keys(), ...after.keys()])].map((kind) => {
    const a = before.get(kind) ?? { kind, count: 0, bytes: 0 };
    const b = after.get(kind) ?? { kind, count: 0, bytes: 0 };
    return {
      kind,
      countBefore: a.count,
      countAfter: b.count,
      bytesBefore: a.bytes,
      bytesAfter: b.bytes,
      growth: b.bytes - a.bytes,
    };
  });
  const total = (kinds: Map<string, HeapKind>) =>
    [...kinds.values()].reduce((sum, kind) => sum + kind.bytes, 0);
  return {
    totalBefore: total(before),
    totalAfter: total(after),
    rows: rows.toSorted((x, y) => Math.abs(y.growth) - Math.abs(x.growth)),
  };
}
