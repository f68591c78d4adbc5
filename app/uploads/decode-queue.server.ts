// How many uploads one process decodes at once (docs/decisions/028-image-decoding-bound.md). A
// 49-megapixel photo takes about 45 MB while it is decoded and resized, whatever its size on
// disk; a few at once took a process past its memory budget. A request takes a place in line
// when it arrives, before its body is read, so a full line also bounds the bodies held in memory.

/** A request's place in line. */
export interface DecodePlace {
  /** Runs `work` once one of the process's decoding turns is free. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Gives the place back; call it once the request is answered, whatever happened. */
  leave(): void;
}

export interface DecodeQueue {
  /** A place in line, or null when `decodes` requests are decoding and `waiting` more wait. */
  enter(): DecodePlace | null;
}

export function createDecodeQueue(decodes: number, waiting: number): DecodeQueue {
  let admitted = 0;
  let running = 0;
  const turns: (() => void)[] = [];
  const nextTurn = async () => {
    if (running < decodes) {
      running++;
      return;
    }
    await new Promise<void>((resolve) => turns.push(resolve));
  };
  // A finished decode hands its turn to the first one waiting, so `running` stays as it is.
  const endTurn = () => {
    const next = turns.shift();
    if (next) next();
    else running--;
  };
  return {
    enter() {
      if (admitted >= decodes + waiting) return null;
      admitted++;
      let left = false;
      return {
        async run(work) {
          await nextTurn();
          try {
            return await work();
          } finally {
            endTurn();
          }
        },
        leave() {
          if (left) return;
          left = true;
          admitted--;
        },
      };
    },
  };
}
