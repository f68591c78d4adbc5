import { data, Form, redirect, useNavigation } from "react-router";
import { AlertDialog } from "~/ui/dialog";
import { ProfileFields } from "~/members/components/profile-fields";
import { parseForm } from "~/kernel/forms";
import { useFocusFirstError } from "~/kernel/use-focus-first-error";
import { MESSAGES } from "~/messages";
import { safeRedirectPath } from "~/kernel/checks";
import { ProfileSchema } from "~/members/schemas";
import { requireUser } from "~/guards.server";
import { completeProfile, hasCompletedProfile } from "~/members/user.server";
import type { Route } from "./+types/additional-data";
import { readForm } from "~/kernel/read-form.server";
import { redirectWithFlash } from "~/flash.server";

function nextPath(request: Request, form?: FormData): string {
  const raw = form?.get("redirectTo") ?? new URL(request.url).searchParams.get("redirectTo");
  return safeRedirectPath(raw, "/");
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  if (hasCompletedProfile(user)) throw redirect("/");
  const redirectTo = nextPath(request);
  return { displayName: user.displayName, redirectTo: redirectTo === "/" ? null : redirectTo };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  if (hasCompletedProfile(user)) throw redirect("/");
  const form = await readForm(request);
  const result = parseForm(ProfileSchema, form, { ignore: ["redirectTo"] });
  if (!result.ok) {
    return data(
      { fieldErrors: result.fieldErrors, formError: result.formError, values: result.values },
      { status: 400 },
    );
  }
  try {
    await completeProfile(context.db, user.id, result.data);
  } catch (error) {
    console.error("No se pudieron guardar los datos adicionales:", error);
    return data(
      { fieldErrors: {}, formError: MESSAGES.additionalDataFailed, values: result.data },
      { status: 500 },
    );
  }
  return redirectWithFlash(context, nextPath(request, form), "additionalDataSaved");
}

export function meta() {
  return [{ title: "Datos adicionales — Ayllu" }, { name: "robots", content: "noindex" }];
}

export default function AdditionalData({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const values = (actionData?.values ?? {}) as Record<string, string>;
  const formRef = useFocusFirstError<HTMLFormElement>(actionData);
  return (
    <section className="page page-narrow" aria-labelledby="additional-title">
      <div className="card">
        <h1 id="additional-title">Datos adicionales</h1>
        <p>
          {loaderData.displayName ? `¡Hola, ${loaderData.displayName}! ` : "¡Hola! "}
          Completa tu perfil para terminar de registrarte. Los campos con * son obligatorios.
        </p>
        <Form method="post" noValidate className="form" ref={formRef}>
          {loaderData.redirectTo ? (
            <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
          ) : null}
          <ProfileFields values={values} errors={actionData?.fieldErrors ?? {}} required />
          <button type="submit" className="button" disabled={saving}>
            {saving ? "Guardando..." : "Guardar"}
          </button>
        </Form>
      </div>
      {actionData?.formError ? (
        <AlertDialog key={JSON.stringify(actionData)} message={actionData.formError} />
      ) : null}
    </section>
  );
}
