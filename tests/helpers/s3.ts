// A real S3 server on loopback for the tests: s3rver (npm, pinned in package.json), standing in for
// the production targets (Cloudflare R2, Garage, AWS S3). Its buckets live in a temporary folder.
import fs from "node:fs";
import net from "node:net";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";

/** s3rver's only key pair. */
export const S3RVER_KEY = { id: "S3RVER", secret: "S3RVER" };

export interface TestS3 {
  endpoint: string;
  port: number;
  /** The site's S3_* variables for `bucket` on this server. */
  env(bucket?: string): Record<string, string>;
  /** Stops answering (the port refuses connections) until `start`. */
  stop(): Promise<void>;
  /** Answers again, on the same port, with the same buckets. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export const TEST_BUCKET = "ayllu-fotos";

export async function startS3(
  buckets: string[] = [TEST_BUCKET, "ayllu-privado"],
  options: { port?: number } = {},
): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "ayllu-s3-"));
  let server: S3rver | null = null;
  let port = options.port ?? 0;
  const start = async () => {
    server = new S3rver({
      address: "127.0.0.1",
      port,
      silent: true,
      directory,
      configureBuckets: buckets.map((name) => ({ name, configs: [] })),
    });
    const address = (await server.run()) as AddressInfo;
    port = address.port;
  };
  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    port,
    env: (bucket = TEST_BUCKET) => ({
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: S3RVER_KEY.id,
      S3_SECRET_ACCESS_KEY: S3RVER_KEY.secret,
      S3_FORCE_PATH_STYLE: "1",
    }),
    async stop() {
      await server?.close();
      server = null;
    },
    start,
    async close() {
      await server?.close();
      server = null;
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

export interface CuttingProxy {
  endpoint: string;
  /**
   * Lets `after` more PUT requests through whole, then cuts the next one after `bytes` of it have
   * been forwarded (the store "goes away" in the middle of a write) and refuses every connection
   * after it until `heal`.
   */
  cutPut(options: { after: number; bytes: number }): void;
  heal(): void;
  /** PUT requests that reached the store whole. */
  putsForwarded(): number;
  close(): Promise<void>;
}

/** A TCP proxy in front of the S3 server that can cut a write halfway (see CuttingProxy). */
export async function startCuttingProxy(targetPort: number): Promise<CuttingProxy> {
  let cut: { after: number; bytes: number } | null = null;
  let broken = false;
  let puts = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    if (broken) {
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, "127.0.0.1");
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
    let cutting: number | null = null;
    client.on("data", (chunk: Buffer) => {
      if (cutting === null && chunk.subarray(0, 4).toString() === "PUT ") {
        if (cut !== null && cut.after === 0) {
          cutting = cut.bytes;
          cut = null;
        } else {
          puts++;
          if (cut) cut.after--;
        }
      }
      if (cutting !== null) {
        const part = chunk.subarray(0, Math.max(0, cutting));
        cutting -= part.length;
        if (part.length > 0) upstream.write(part);
        if (cutting <= 0) {
          broken = true;
          client.destroy();
          upstream.destroy();
        }
        return;
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    cutPut(options) {
      cut = { ...options };
    },
    heal() {
      broken = false;
    },
    putsForwarded: () => puts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
