// A real SMTP server on loopback (the smtp-server package), started by the test that needs it:
// it receives what the site sends and parses each message (mailparser). It can refuse mail, or
// hold a message unanswered, so that a test can play an outage or a crash in the middle of a send.
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerDataStream } from "smtp-server";

export interface TestSmtp {
  url: string;
  /** Every message accepted (answered 250), parsed, in order of arrival. */
  received: ParsedMail[];
  /** How the next messages are answered. */
  mode: "accept" | "reject-temporarily" | "reject-permanently" | "hold";
  /** Resolves when a message is being held (mode "hold"); `release` answers it with a 421. */
  held(): Promise<void>;
  release(): void;
  /** Resolves once `count` messages have been accepted (fails after 20 s rather than hang). */
  waitFor(count: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => resolve(Buffer.concat(chunks)));
    stream.on("error", reject);
  });
}

function smtpError(message: string, responseCode: number) {
  return Object.assign(new Error(message), { responseCode });
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ParsedMail[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let holding: ((error?: Error) => void) | null = null;
  let onHeld: (() => void) | null = null;
  const state: TestSmtp = {
    url: "",
    received,
    mode: "accept",
    held: () =>
      new Promise((resolve) => {
        if (holding) resolve();
        else onHeld = resolve;
      }),
    release() {
      holding?.(smtpError("Servicio no disponible", 421));
      holding = null;
    },
    waitFor: (count) =>
      new Promise((resolve, reject) => {
        if (received.length >= count) return resolve(received);
        const timer = setTimeout(
          () => reject(new Error(`Llegaron ${received.length} correos de ${count}`)),
          20_000,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(received);
          },
        });
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    async onData(stream, _session, callback) {
      let raw: Buffer;
      try {
        raw = await readAll(stream);
      } catch (error) {
        // The client went away in the middle of the message (a server stopping): nothing arrived.
        return callback(error as Error);
      }
      if (state.mode === "reject-temporarily")
        return callback(smtpError("Inténtalo más tarde", 451));
      if (state.mode === "reject-permanently") return callback(smtpError("Buzón inexistente", 550));
      if (state.mode === "hold") {
        holding = callback;
        onHeld?.();
        onHeld = null;
        return;
      }
      received.push(await simpleParser(raw));
      callback();
      for (const waiter of [...waiters]) {
        if (received.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    },
  });
  // A client that goes away in the middle of a message (a node killed mid-load, in the two-nodes
  // test) is reported as the server's 'error'; unheard, it would end the test run.
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.server.address();
  if (!address || typeof address === "string") throw new Error("El servidor SMTP no escucha");
  state.url = `smtp://127.0.0.1:${address.port}`;
  return state;
}
