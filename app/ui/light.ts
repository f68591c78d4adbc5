// Light mode as components see it (decision 049; the rules are in app/site/light-mode.ts).
import { useMatches, useRouteLoaderData } from "react-router";
import { smallestUpload, uploadSrcSet } from "~/kernel/images";

/** Whether the page being rendered is light (the root route's data says). */
export function useLightMode(): boolean {
  const root = useRouteLoaderData("root") as { light?: boolean } | undefined;
  return root?.light ?? false;
}

/**
 * Whether this page is sent without scripts: light mode, on a page whose route says it works
 * without them (`handle.withoutScripts`). Its interactive parts then render what needs none.
 */
export function useWithoutScripts(): boolean {
  const light = useLightMode();
  const handle = useMatches().at(-1)?.handle as { withoutScripts?: boolean } | undefined;
  return light && handle?.withoutScripts === true;
}

/**
 * The `src` and `srcSet` of a picture: every stored width normally, only the smallest in light
 * mode. A link (not an upload) is shown as it is.
 */
export function imageSources(
  value: string,
  light: boolean,
): { src: string; srcSet: string | undefined } {
  if (light) return { src: smallestUpload(value), srcSet: undefined };
  return { src: value, srcSet: uploadSrcSet(value) };
}
