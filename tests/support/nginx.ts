import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "#server/free-port.ts";

export type Nginx = {
  /** Where clients reach the shop through the load balancer. */
  url: string;
  port: number;
  /** The access log so far: one line per request, naming the shop process that answered. */
  accessLog: () => string;
  /** nginx's own complaints so far (upstreams that failed, and why). */
  errorLog: () => string;
  /** Stops nginx and removes its folder. */
  stop: () => Promise<void>;
};

/** The response header naming the shop process (`127.0.0.1:<port>`) that answered. */
export const UPSTREAM_HEADER = "x-upstream";

function findNginx(): string | undefined {
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter), "/usr/sbin", "/usr/local/sbin"];
  return dirs.map((dir) => path.join(dir, "nginx")).find((file) => fs.existsSync(file));
}

function installNginx(): string {
  if (process.getuid?.() !== 0 || spawnSync("apt-get", ["--version"]).status !== 0) {
    throw new Error(
      "nginx is needed for the tests with several shop processes and was not found. " +
        "Install it (Debian/Ubuntu: sudo apt-get install nginx) and run the tests again.",
    );
  }
  console.log("Installing nginx for the tests (apt-get)…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const wait = ["-o", "DPkg::Lock::Timeout=300"];
  for (const args of [
    ["update", "-qq", ...wait],
    ["install", "-y", "-qq", ...wait, "nginx"],
  ]) {
    const result = spawnSync("apt-get", args, { env, encoding: "utf8" });
    if (result.status !== 0) {
      throw new Error(`apt-get ${args[0]} failed:\n${result.stderr || result.stdout}`);
    }
  }
  const found = findNginx();
  if (!found) throw new Error("apt-get installed nginx, but no nginx program was found.");
  return found;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * The configuration of a load balancer as a shop would run one: round robin over the shop
 * processes, idempotent requests tried on the next process when one is down or answers
 * 502/503, the client's address passed on in X-Forwarded-For, keep-alive connections to the
 * processes closed before Node's own keep-alive timeout (5 s) can close them under nginx.
 */
export function nginxConfig(folder: string, port: number, upstreams: number[]): string {
  const servers = upstreams
    .map((upstream) => `    server 127.0.0.1:${upstream} max_fails=1 fail_timeout=2s;`)
    .join("\n");
  return `daemon off;
worker_processes 1;
pid ${folder}/nginx.pid;
error_log ${folder}/error.log warn;
events { worker_connections 1024; }
http {
  log_format upstream '$remote_addr "$request" $status $upstream_addr $upstream_status';
  access_log ${folder}/access.log upstream;
  client_body_temp_path ${folder}/client-body;
  proxy_temp_path ${folder}/proxy;
  fastcgi_temp_path ${folder}/fastcgi;
  uwsgi_temp_path ${folder}/uwsgi;
  scgi_temp_path ${folder}/scgi;
  upstream shop {
${servers}
    keepalive 16;
    keepalive_timeout 4s;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://shop;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout http_502 http_503;
      proxy_connect_timeout 2s;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

/**
 * Starts nginx in front of the shop processes listening on `upstreams` (loopback ports), on a
 * free port of its own, with its configuration, pid file, logs and temporary files in a fresh
 * folder. Installs nginx through apt-get when it is missing and the tests run as root.
 */
export async function startNginx(upstreams: number[]): Promise<Nginx> {
  const nginx = findNginx() ?? installNginx();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "shop-nginx-"));
  // As root, nginx's workers run as an unprivileged user that must reach the temporary files.
  fs.chmodSync(folder, 0o755);
  const port = await freePort();
  const configFile = path.join(folder, "nginx.conf");
  fs.writeFileSync(configFile, nginxConfig(folder, port, upstreams));
  const child = spawn(nginx, ["-p", folder, "-c", configFile, "-e", `${folder}/error.log`], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const stop = async () => {
    process.removeListener("exit", killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
    fs.rmSync(folder, { recursive: true, force: true });
  };
  const readLog = (name: string) => {
    const file = path.join(folder, name);
    return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  };
  // A minute without it is a hang, not a slow machine.
  const deadline = Date.now() + 60_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      const log = `${output}${readLog("error.log")}`;
      await stop();
      throw new Error(`nginx did not start:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    accessLog: () => readLog("access.log"),
    errorLog: () => readLog("error.log"),
    stop,
  };
}
