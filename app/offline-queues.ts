// The offline queues of the domains, registered for the sign-out guard (app/ui/sign-out-guard.tsx).
// root.tsx imports this module, so every page that can sign out knows every queue.
import { unsentCheckIns } from "~/attendance/check-in-store";
import { unsentEntries } from "~/competitions/judging/judge-store";
import { registerOfflineQueue } from "~/kernel/offline-queues";

registerOfflineQueue({
  one: "registro de entrada",
  many: "registros de entrada",
  unsent: unsentCheckIns,
});
registerOfflineQueue({
  one: "anotación del jurado",
  many: "anotaciones del jurado",
  unsent: unsentEntries,
});
