// `node server.js` as an operator runs it, in a process of its own: started with only the
// environment given, watched through what it prints, stopped by a signal. Used by the process
// tests and by `npm run bench:stop`, so it imports nothing from the test runner.
import { randomUUID } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { PROJECT_ROOT } from "~/kernel/paths.server";

export interface Started {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  exited: Promise<number | string>;
}

/** Runs `node server.js` with only `env` (and PATH): nothing leaks in from the test run. */
export function runServer(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ["server.js"], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: os.tmpdir(), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => {
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "desconocido"));
  });
  return { child, output: () => output, exited };
}

/** Waits until `processes` server processes of `started` listen (a cluster's workers). */
export async function listening(started: Started, processes = 1): Promise<Started & { url: URL }> {
  const url = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`El servidor no arrancó a tiempo:\n${started.output()}`)),
      45_000,
    );
    const check = () => {
      const matches = [...started.output().matchAll(/Ayllu escucha en (http:\/\/\S+)/g)];
      if (matches.length >= processes) {
        clearTimeout(timer);
        resolve(new URL(matches[0]![1]!));
      }
    };
    started.child.stdout!.on("data", check);
    void started.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`El servidor terminó (${code}) antes de escuchar:\n${started.output()}`));
    });
  });
  return { ...started, url };
}

export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: no terminó en ${ms} ms`)), ms).unref(),
    ),
  ]);
}

/** The process ids of `pid`'s children (a cluster primary's workers). */
export function childrenOf(pid: number): number[] {
  return fs
    .readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface Load {
  /** How many requests were answered while the load ran. */
  answered(): number;
  /** Resolves once every stream and request loop has ended (the server closed them). */
  ended: Promise<void>;
}

/**
 * What a site has open when it is told to stop: `streams` live-results streams (Server-Sent
 * Events, which never end by themselves) and `loops` clients each asking for pages one after
 * the other. Resolves once every stream has said it is connected; the loops go on until the
 * server stops answering.
 */
export async function openStreamsAndRequests(
  url: URL,
  { streams = 6, loops = 4 } = {},
): Promise<Load> {
  let answered = 0;
  let going = true;
  const connected: Promise<void>[] = [];
  const ends: Promise<void>[] = [];
  for (let i = 0; i < streams; i++) {
    const opened = fetch(new URL(`/detalles/${randomUUID()}/resultados/en-vivo`, url));
    connected.push(
      opened.then(async (reply) => {
        if (reply.status !== 200) throw new Error(`El canal en vivo respondió ${reply.status}`);
        const reader = reply.body!.getReader();
        await reader.read();
        ends.push(
          (async () => {
            try {
              while (!(await reader.read()).done);
            } catch {
              // A stream cut by the stop ends like one closed.
            }
          })(),
        );
      }),
    );
  }
  await Promise.all(connected);
  const paths = ["/", "/eventos", "/healthz"];
  for (let i = 0; i < loops; i++) {
    ends.push(
      (async () => {
        for (let n = i; going; n++) {
          try {
            const reply = await fetch(new URL(paths[n % paths.length]!, url));
            await reply.arrayBuffer();
            answered++;
          } catch {
            going = false;
          }
        }
      })(),
    );
  }
  return {
    answered: () => answered,
    ended: (async () => {
      // Stream readers are added as each connects; all have connected by now.
      await Promise.all(ends);
    })(),
  };
}
