import { useEffect, useState } from "react";
import { Form, useRevalidator } from "react-router";
import { UploadControl, useImageUpload } from "~/uploads/components/image-input";
import { FieldError } from "~/ui/field";

/**
 * 'Subir mi foto' (it becomes the member's photo at once) and, with one uploaded, 'Quitar mi
 * foto', back to the account's. Uploading needs JavaScript; removing does not.
 */
export function ProfilePhoto({ hasOwnPhoto }: { hasOwnPhoto: boolean }) {
  const { state, upload } = useImageUpload("perfil");
  const revalidator = useRevalidator();
  const [interactive, setInteractive] = useState(false);
  useEffect(() => setInteractive(true), []);
  return (
    <div className="profile-photo">
      {interactive ? (
        <UploadControl
          id="perfil-foto"
          label={hasOwnPhoto ? "Cambiar mi foto" : "Subir mi foto"}
          multiple={false}
          state={state}
          describedBy={state.error ? "perfil-foto-error" : undefined}
          onFiles={async (files) => {
            const [path] = await upload(files.slice(0, 1));
            if (path) await revalidator.revalidate();
          }}
        />
      ) : null}
      {hasOwnPhoto ? (
        <Form method="post">
          <input type="hidden" name="intent" value="photoRemove" />
          <button type="submit" className="button button-ghost button-small">
            Quitar mi foto
          </button>
        </Form>
      ) : null}
      <FieldError id="perfil-foto-error" message={state.error ?? undefined} />
    </div>
  );
}
