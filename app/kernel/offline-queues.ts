// What a phone may keep to send later (the door's check-ins, a judge's entries): each domain with
// an offline queue is registered here by the app (app/offline-queues.ts), so that signing out can
// ask every queue what waits without the base knowing any domain (app/ui/sign-out-guard.tsx).

export interface OfflineQueue {
  /** How one and several waiting items are called: "registro de entrada", "registros de entrada". */
  one: string;
  many: string;
  /** How many items wait on this device to be sent. */
  unsent: () => Promise<number>;
}

const queues: OfflineQueue[] = [];

/** Adds a queue; the order of registration is the order in which the sign-out dialog names them. */
export function registerOfflineQueue(queue: OfflineQueue): void {
  if (!queues.includes(queue)) queues.push(queue);
}

export function offlineQueues(): readonly OfflineQueue[] {
  return queues;
}
