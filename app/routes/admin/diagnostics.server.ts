// /admin/diagnostico on the server: the page's lines (app/diagnostics) and its one form,
// 'Enviar correo de prueba'. The route checks who is asking; the domain checks it again.
import { data, type AppLoadContext } from "react-router";
import type { User } from "~/db/schema.server";
import { diagnose, sendTestMail } from "~/diagnostics.server";

export interface DiagnosticsActionData {
  ok: boolean;
  message: string;
}

export async function loadDiagnostics(admin: User, context: AppLoadContext) {
  const lines = await diagnose(
    context.db,
    context.config,
    admin,
    context.requestSeen(),
    context.now(),
    context.hostProbes,
  );
  return data(
    { lines, smtp: context.config.mail.transport.kind === "smtp", email: admin.email },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function diagnosticsAction(form: FormData, admin: User, context: AppLoadContext) {
  if (form.get("intent") !== "testMail")
    return data<DiagnosticsActionData>(
      { ok: false, message: "Acción desconocida." },
      { status: 400 },
    );
  const result = await sendTestMail(context.db, context.config, admin);
  if (result.ok)
    return data<DiagnosticsActionData>({
      ok: true,
      message: `Correo de prueba enviado a ${result.to}: el servidor SMTP lo aceptó. Revisa tu bandeja (y la carpeta de spam).`,
    });
  return data<DiagnosticsActionData>(
    { ok: false, message: result.message },
    { status: result.status },
  );
}
