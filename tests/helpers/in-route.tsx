// Renders a component as a page of the site would: inside a data router whose root route's data
// says whether the page is light (decision 049). Components that read the root's data or the
// location need one.
import { render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { createRoutesStub } from "react-router";

export async function renderInRoute(ui: ReactNode, { light = false } = {}) {
  const Stub = createRoutesStub([
    {
      id: "root",
      path: "/",
      loader: () => ({ light }),
      HydrateFallback: () => null,
      Component: () => <div data-testid="in-route">{ui}</div>,
    },
  ]);
  const result = render(<Stub initialEntries={["/"]} />);
  await screen.findByTestId("in-route");
  return result;
}
