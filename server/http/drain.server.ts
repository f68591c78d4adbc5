// One 'drain' listener per response, however many times a writer waits for it.
//
// React Router writes a page in chunks and, whenever a write returns false, waits for 'drain' with
// `res.once("drain", …)` and later `res.off("drain", …)`. compression() forwards `res.on("drain")`
// to its gzip/brotli stream but not `res.off`, so every wait left one listener on that stream: a
// long page (an admin list of a few hundred events) passed ten and Node printed
// MaxListenersExceededWarning, and the listeners lived as long as the response. Mounted after
// compression(), this keeps the waiting writers in a set and registers one listener that wakes
// them all.
import type { RequestHandler } from "express";

type Listener = (...args: unknown[]) => void;

export const shareDrainListener: RequestHandler = (_req, res, next) => {
  const waiting = new Set<Listener>();
  let registered = false;
  const once = res.once.bind(res);
  const removeListener = res.removeListener.bind(res);

  res.once = function (event: string | symbol, listener: Listener) {
    if (event !== "drain") return once(event, listener);
    waiting.add(listener);
    if (!registered) {
      registered = true;
      res.on("drain", () => {
        const woken = [...waiting];
        waiting.clear();
        for (const wake of woken) wake();
      });
    }
    return res;
  } as typeof res.once;

  res.removeListener = function (event: string | symbol, listener: Listener) {
    if (event === "drain" && waiting.delete(listener)) return res;
    return removeListener(event, listener);
  } as typeof res.removeListener;
  res.off = res.removeListener;

  next();
};
