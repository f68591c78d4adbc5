import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { Form, Link } from "react-router";
import { useSignOutGuard } from "~/ui/sign-out-guard";
import { Avatar, displayNameOf } from "~/ui/avatar";
import {
  grantsAllowing,
  isEventScoped,
  may,
  mayAdminister,
  type Actor,
} from "~/kernel/permissions";

export interface MenuUser extends Actor {
  nombreCompleto: string | null;
  displayName: string | null;
  photoURL: string | null;
  isAdmin: boolean;
}

/** One entry of the menu: a link, or a divider before a group. */
type Entry = { to: string; label: string; reloadDocument?: boolean } | "divider";

/** One event's page, or the list of roles on the profile when the role opens several. */
function oneOrList(hrefs: readonly string[]): string | null {
  return hrefs.length === 0 ? null : hrefs.length === 1 ? hrefs[0]! : "/profile#mis-roles";
}

/**
 * The entries a member sees (§2), each asked of the capability table as its page asks it
 * (decision 071); 'Cerrar Sesión' follows them. Admins reach every event from the panel, so the
 * entries of one event's roles are for the others.
 */
function menuEntries(user: MenuUser): Entry[] {
  const entries: Entry[] = [
    { to: "/profile", label: "Perfil" },
    // A whole page load: its own headers allow its offline copy (decision 050).
    { to: "/mis-entradas", label: "Mis entradas", reloadDocument: true },
  ];
  const admin = mayAdminister(user);
  const roles = admin ? [] : (user.grants ?? []);
  // Organiser or door staff of one event: straight to its check-in; of several, the list.
  const checkIn = oneOrList(
    grantsAllowing({ ...user, grants: roles }, "event.checkIn").map(
      (g) => `/admin/eventos/${g.eventId}/registro`,
    ),
  );
  // A judge: straight to the one category's screen, or the list (decision 059).
  const judge = oneOrList(
    grantsAllowing({ ...user, grants: roles }, "category.judge")
      .filter((g) => g.kind === "judge" && g.categoryId)
      .map((g) => `/admin/eventos/${g.eventId}/jurado/${g.categoryId}`),
  );
  const shown: (Entry | false)[] = [
    admin && { to: "/admin", label: "Administrar y Publicar" },
    roles.some((g) => isEventScoped(g.kind)) && {
      to: "/profile#mis-roles",
      label: "Mis eventos a cargo",
    },
    checkIn !== null && { to: checkIn, label: "Registro de entrada", reloadDocument: true },
    judge !== null && { to: judge, label: "Anotar resultados", reloadDocument: true },
    may(user, "publications.manage") && { to: "/projectsandnotes", label: "Notas y Proyectos" },
    admin && { to: "/admin/sitio", label: "Contenido del sitio" },
    may(user, "payments.setup") && { to: "/tesoreria", label: "Tesorería" },
    may(user, "audit.read") && { to: "/admin/auditoria", label: "Registro de auditoría" },
    admin && { to: "/admin/diagnostico", label: "Diagnóstico" },
  ];
  const roleEntries = shown.filter((entry) => entry !== false);
  if (roleEntries.length > 0) entries.push("divider", ...roleEntries);
  return entries;
}

function MenuButtonContent({ user }: { user: MenuUser }) {
  const name = displayNameOf(user);
  return (
    <>
      <Avatar name={name} photoURL={user.photoURL} />
      <span className="user-menu-name">{name}</span>
      <svg aria-hidden="true" viewBox="0 0 12 12" width="12" height="12">
        <path d="M2 4l4 4 4-4" stroke="currentColor" strokeWidth="1.5" fill="none" />
      </svg>
    </>
  );
}

/**
 * The member's menu on a page sent without scripts (light mode, decision 049): a disclosure the
 * browser opens and closes by itself, with plain links.
 */
function UserMenuDisclosure({ user }: { user: MenuUser }) {
  return (
    <details className="user-menu">
      <summary className="user-menu-button">
        <MenuButtonContent user={user} />
      </summary>
      <ul className="user-menu-list" aria-label={displayNameOf(user)}>
        {menuEntries(user).map((entry, index) =>
          entry === "divider" ? (
            <li key={`divider-${index}`} className="menu-divider" aria-hidden="true" />
          ) : (
            <li key={`${entry.to}-${entry.label}`}>
              <a className="user-menu-item" href={entry.to}>
                {entry.label}
              </a>
            </li>
          ),
        )}
        <li>
          {/* Without scripts here, its page asks the phone first (entries not yet sent). */}
          <a className="user-menu-item" href="/cerrar-sesion">
            Cerrar Sesión
          </a>
        </li>
      </ul>
    </details>
  );
}

/**
 * The signed-in member's dropdown (§2). A menu button: Enter, Space or the arrow keys open it,
 * arrows move between items, Escape closes it and returns focus; a selection or a click
 * outside closes it.
 */
export function UserMenu({ user, scripts = true }: { user: MenuUser; scripts?: boolean }) {
  if (!scripts) return <UserMenuDisclosure user={user} />;
  return <UserMenuButton user={user} />;
}

function UserMenuButton({ user }: { user: MenuUser }) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);
  const focusOnOpen = useRef<"first" | "last" | null>(null);
  const menuId = useId();
  const name = displayNameOf(user);
  const signOut = useSignOutGuard();

  const items = () =>
    Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

  useEffect(() => {
    if (!open) return;
    const list = items();
    if (focusOnOpen.current === "last") list.at(-1)?.focus();
    else list[0]?.focus();
    focusOnOpen.current = null;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      focusOnOpen.current = event.key === "ArrowUp" ? "last" : "first";
      setOpen(true);
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const list = items();
    const index = list.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      event.preventDefault();
      list[(to + list.length) % list.length]?.focus();
    };
    switch (event.key) {
      case "ArrowDown":
        return move(index + 1);
      case "ArrowUp":
        return move(index - 1);
      case "Home":
        return move(0);
      case "End":
        return move(list.length - 1);
      case "Escape":
        event.preventDefault();
        return close(true);
      case "Tab":
        return close(false);
    }
  };

  return (
    <div className="user-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="user-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={onButtonKeyDown}
      >
        <MenuButtonContent user={user} />
      </button>
      <ul
        id={menuId}
        ref={menuRef}
        role="menu"
        aria-label={name}
        className="user-menu-list"
        hidden={!open}
        onKeyDown={onMenuKeyDown}
      >
        {menuEntries(user).map((entry, index) =>
          entry === "divider" ? (
            <li key={`divider-${index}`} role="separator" className="menu-divider" />
          ) : (
            <li key={`${entry.to}-${entry.label}`} role="none">
              <Link
                role="menuitem"
                className="user-menu-item"
                to={entry.to}
                reloadDocument={entry.reloadDocument}
                onClick={() => close(false)}
              >
                {entry.label}
              </Link>
            </li>
          ),
        )}
        <li role="none">
          <Form
            method="post"
            action="/logout"
            onSubmit={(event) => {
              // Focus on the menu's button: where it returns if the sign-out asks and is cancelled.
              close(true);
              signOut.onSubmit(event);
            }}
          >
            <button role="menuitem" className="user-menu-item" type="submit">
              Cerrar Sesión
            </button>
          </Form>
        </li>
      </ul>
      {signOut.dialog}
    </div>
  );
}
