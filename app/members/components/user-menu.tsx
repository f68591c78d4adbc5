import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { Form, Link } from "react-router";
import { Avatar, displayNameOf } from "~/ui/avatar";

export interface MenuUser {
  nombreCompleto: string | null;
  displayName: string | null;
  photoURL: string | null;
  isAdmin: boolean;
  /** Organiser or door staff of some event: 'Mis eventos a cargo'. */
  eventsInCharge?: boolean;
  /** Where 'Registro de entrada' goes (one event's check-in, or the list of roles). */
  checkIn?: string | null;
  /** 'Notas y Proyectos' for editors. */
  editor?: boolean;
  /** 'Tesorería' for treasurers (decision 048). */
  treasurer?: boolean;
}

/**
 * The signed-in member's dropdown (§2). A menu button: Enter, Space or the arrow keys open it,
 * arrows move between items, Escape closes it and returns focus; a selection or a click
 * outside closes it.
 */
export function UserMenu({ user }: { user: MenuUser }) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);
  const focusOnOpen = useRef<"first" | "last" | null>(null);
  const menuId = useId();
  const name = displayNameOf(user);

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
        <Avatar name={name} photoURL={user.photoURL} />
        <span className="user-menu-name">{name}</span>
        <svg aria-hidden="true" viewBox="0 0 12 12" width="12" height="12">
          <path d="M2 4l4 4 4-4" stroke="currentColor" strokeWidth="1.5" fill="none" />
        </svg>
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
        <li role="none">
          <Link role="menuitem" to="/profile" onClick={() => close(false)}>
            Perfil
          </Link>
        </li>
        <li role="none">
          <Link role="menuitem" to="/mis-entradas" reloadDocument onClick={() => close(false)}>
            Mis entradas
          </Link>
        </li>
        {!user.isAdmin && (user.eventsInCharge || user.editor || user.treasurer) ? (
          <>
            <li role="separator" className="menu-divider" />
            {user.eventsInCharge ? (
              <li role="none">
                <Link role="menuitem" to="/profile#mis-roles" onClick={() => close(false)}>
                  Mis eventos a cargo
                </Link>
              </li>
            ) : null}
            {user.checkIn ? (
              <li role="none">
                <Link role="menuitem" to={user.checkIn} reloadDocument onClick={() => close(false)}>
                  Registro de entrada
                </Link>
              </li>
            ) : null}
            {user.editor ? (
              <li role="none">
                <Link role="menuitem" to="/projectsandnotes" onClick={() => close(false)}>
                  Notas y Proyectos
                </Link>
              </li>
            ) : null}
            {user.treasurer ? (
              <li role="none">
                <Link role="menuitem" to="/tesoreria" onClick={() => close(false)}>
                  Tesorería
                </Link>
              </li>
            ) : null}
          </>
        ) : null}
        {user.isAdmin ? (
          <>
            <li role="separator" className="menu-divider" />
            <li role="none">
              <Link role="menuitem" to="/admin" onClick={() => close(false)}>
                Administrar y Publicar
              </Link>
            </li>
            <li role="none">
              <Link role="menuitem" to="/projectsandnotes" onClick={() => close(false)}>
                Notas y Proyectos
              </Link>
            </li>
            <li role="none">
              <Link role="menuitem" to="/admin/sitio" onClick={() => close(false)}>
                Contenido del sitio
              </Link>
            </li>
            <li role="none">
              <Link role="menuitem" to="/tesoreria" onClick={() => close(false)}>
                Tesorería
              </Link>
            </li>
            <li role="none">
              <Link role="menuitem" to="/admin/auditoria" onClick={() => close(false)}>
                Registro de auditoría
              </Link>
            </li>
            <li role="none">
              <Link role="menuitem" to="/admin/diagnostico" onClick={() => close(false)}>
                Diagnóstico
              </Link>
            </li>
          </>
        ) : null}
        <li role="none">
          <Form method="post" action="/logout" onSubmit={() => close(false)}>
            <button role="menuitem" type="submit">
              Cerrar Sesión
            </button>
          </Form>
        </li>
      </ul>
    </div>
  );
}
