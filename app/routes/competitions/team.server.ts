// The teams' pages on the server (decision 052): registering a team, its page, and joining by
// invitation. Each post is dispatched by `intent` to the model (app/competitions/team-*.server.ts),
// which decides every change; a refusal is answered as data beside the form, with its status.
import { categoryResults } from "~/competitions/judging/results.server";
import { data, redirect, type AppLoadContext } from "react-router";
import { COACH_CONSENT, formatInvitationCode, TEAM_MESSAGES } from "~/competitions/teams";
import { listSchools } from "~/competitions/schools.server";
import {
  confirmCoach,
  createTeam,
  joinTeam,
  leaveAsCoach,
  leaveTeam,
  removeCoach,
  removeMember,
  renewInvitation,
  setRobotPhoto,
  updateTeam,
  withdrawTeam,
} from "~/competitions/team-commands.server";
import { TeamError } from "~/competitions/team-places.server";
import { categoryForNewTeam, findInvitation, teamPage } from "~/competitions/team-views.server";
import { TEAM_FIELDS, type TeamFormValues } from "~/competitions/teams";
import { redirectWithFlash } from "~/flash.server";
import type { SessionUser } from "~/guards.server";
import { fieldErrorOf, Refusal } from "~/kernel/errors";
import { notFound } from "~/kernel/not-found";
import { checkInPass } from "~/attendance/check-in.server";
import { teamAtDoor } from "~/competitions/door.server";
import { may } from "~/kernel/permissions";
import { eventScope } from "~/events/event.server";
import { readForm } from "~/kernel/read-form.server";
import { MESSAGES } from "~/messages";
import { readUploads } from "~/uploads/read-uploads.server";
import { siteStorage } from "~/uploads/site-storage.server";
import { busyError, countUpload, releaseAfterChange, storeImages } from "~/uploads/upload.server";

const MULTIPART = /^multipart\/form-data\s*;/i;
const NO_STORE = { "Cache-Control": "no-store" };

const now = (context: AppLoadContext) => context.now();

export type TeamReply = {
  intent: string;
  message: string;
  fieldErrors?: Partial<Record<keyof TeamFormValues, string>>;
  values?: TeamFormValues;
};

/** A field sent once; null when it came several times or as a file (a malformed post). */
function single(form: FormData, name: string) {
  const values = form.getAll(name);
  return values.length === 1 ? values[0] : values.length === 0 ? undefined : null;
}

const teamFields = (form: FormData) =>
  Object.fromEntries(TEAM_FIELDS.map((name) => [name, single(form, name)]));

function typedValues(form: FormData): TeamFormValues {
  const out: TeamFormValues = { nombre: "", colegio: "", ciudad: "", robot: "" };
  for (const name of TEAM_FIELDS) {
    const value = form.get(name);
    out[name] = typeof value === "string" ? value.slice(0, 500) : "";
  }
  return out;
}

function refused(error: unknown, intent: string, form?: FormData) {
  if (!(error instanceof Refusal)) throw error;
  return data<TeamReply>(
    {
      intent,
      message: error.message,
      fieldErrors: fieldErrorOf(error),
      values: form ? typedValues(form) : undefined,
    },
    { status: error.status, headers: NO_STORE },
  );
}

// ——— /equipos/nuevo?categoria=… ———

export async function loadNewTeam(request: Request, context: AppLoadContext) {
  const categoryId = new URL(request.url).searchParams.get("categoria");
  const found = await categoryForNewTeam(context.db, categoryId);
  if (!found) notFound(TEAM_MESSAGES.categoryNotFound);
  const { category, eventName, teams, waiting } = found;
  return data(
    {
      timeZone: context.config.siteTimezone,
      category: {
        id: category.id,
        name: category.name,
        level: category.level,
        minMembers: category.minMembers,
        maxMembers: category.maxMembers,
        coachRequired: category.coachRequired,
        feeCents: category.feeCents,
        registrationClosesAt: category.registrationClosesAt.toISOString(),
        closed: now(context).getTime() >= category.registrationClosesAt.getTime(),
        // A new team waits behind those already waiting (decision 056).
        waitingList: (category.capacity !== null && teams >= category.capacity) || waiting > 0,
        waiting,
      },
      event: { id: category.eventId, name: eventName },
      schools: (await listSchools(context.db)).map((s) => s.name),
      coachConsent: COACH_CONSENT,
    },
    { headers: NO_STORE },
  );
}

export async function newTeamAction(request: Request, user: SessionUser, context: AppLoadContext) {
  const form = await readForm(request);
  try {
    const team = await createTeam(
      context.db,
      user,
      single(form, "categoryId"),
      teamFields(form),
      now(context),
    );
    return redirectWithFlash(
      context,
      `/equipos/${team.id}`,
      team.status === "waiting" ? "teamWaiting" : "teamCreated",
    );
  } catch (error) {
    return refused(error, "createTeam", form);
  }
}

// ——— /equipos/:teamId ———

export async function loadTeam(
  request: Request,
  user: SessionUser | null,
  teamId: string,
  context: AppLoadContext,
) {
  const page = await teamPage(context.db, user, teamId);
  if (!page) notFound(TEAM_MESSAGES.teamNotFound);
  const origin = context.config.publicUrl.origin;
  const editing = new URL(request.url).searchParams.get("editar") === "1";
  const { viewer, team, event } = page;
  const insider = viewer.isMember || viewer.isCoach || viewer.isOrganiser;
  // At the door (decision 055): the team's own people see its check-in and inspection, and each
  // competitor their pass; door staff and organisers get the way to the inspection screen.
  const competitor = viewer.isMember || (viewer.isCoach && team.coachConfirmed);
  const door = insider && team.status === "approved" ? await teamAtDoor(context.db, team.id) : null;
  const scope = await eventScope(context.db, event.id, now(context));
  // Its place in the category's results, once it has one (decision 060).
  const results = await categoryResults(context.db, page.category.id);
  const ranked = results?.rows.find((r) => r.teamId === team.id);
  return data(
    {
      ...page,
      result:
        results && ranked && ranked.place !== null
          ? { place: ranked.place, final: results.category.final }
          : null,
      door,
      pass:
        door && competitor && user
          ? checkInPass(
              context.config.sessionSecret,
              { id: event.id, nombreEvento: event.name },
              user.id,
              // A competitor's pass: their team's place is what counts at the door.
              null,
            )
          : null,
      inspectionLink: scope !== null && may(user, "event.inspect", scope),
      category: {
        ...page.category,
        registrationClosesAt: page.category.registrationClosesAt.toISOString(),
        closed: now(context).getTime() >= page.category.registrationClosesAt.getTime(),
      },
      fee: page.fee ? { ...page.fee, heldUntil: page.fee.heldUntil?.toISOString() ?? null } : null,
      invitation: page.invitation
        ? {
            code: formatInvitationCode(page.invitation),
            link: `${origin}/equipos/unirse/${page.invitation}`,
          }
        : null,
      editing: editing && page.viewer.isCaptain,
      schools: page.viewer.isCaptain ? (await listSchools(context.db)).map((s) => s.name) : [],
      timeZone: context.config.siteTimezone,
      maxMegabytes: Math.round(context.config.uploadMaxBytes / 1024 / 1024),
    },
    // Names in full for the team's own people: never a shared cache.
    { headers: NO_STORE },
  );
}

async function uploadRobotPhoto(
  request: Request,
  user: SessionUser,
  teamId: string,
  context: AppLoadContext,
) {
  const limits = {
    maxBytes: context.config.uploadMaxBytes,
    maxPixels: context.config.uploadMaxPixels,
  };
  const place = context.decodeQueue.enter();
  if (!place) return refused(busyError(), "photo");
  let previous: string | null;
  try {
    // The body first (a malformed one is a 400 like any form's), then who asks, then the count:
    // only the captain's photos count against their uploads per minute.
    const files = await readUploads(request, limits, {
      field: "foto",
      missing: "Elige la foto del robot.",
    });
    if (files.length > 1) throw new TeamError(TEAM_MESSAGES.photoOne);
    const page = await teamPage(context.db, user, teamId);
    if (!page) notFound(TEAM_MESSAGES.teamNotFound);
    if (!page.viewer.isCaptain) throw new TeamError(TEAM_MESSAGES.onlyCaptain, 403);
    // Checked again before the file is stored (setRobotPhoto decides, under the team's lock): a
    // photo refused there would be left in the store for nothing.
    if (page.team.status !== "pending" && page.team.status !== "approved")
      throw new TeamError(TEAM_MESSAGES.teamClosed, 409);
    if (new Date(page.category.registrationClosesAt) <= now(context))
      throw new TeamError(TEAM_MESSAGES.closed, 409);
    // Any member may upload a photo of their own (the profile's purpose); the robot's is one.
    await countUpload(context.db, user, "perfil", context.config.uploadsPerMinute);
    const [image] = await storeImages(
      siteStorage(context.config),
      user,
      "perfil",
      files,
      limits,
      place,
    );
    previous = await setRobotPhoto(context.db, user, teamId, image!.path, now(context));
  } catch (error) {
    return refused(error, "photo");
  } finally {
    place.leave();
  }
  await releaseAfterChange(context, previous);
  return redirectWithFlash(context, `/equipos/${teamId}`, "teamPhotoSaved");
}

export async function teamAction(
  request: Request,
  user: SessionUser,
  teamId: string,
  context: AppLoadContext,
) {
  if (MULTIPART.test(request.headers.get("Content-Type") ?? ""))
    return uploadRobotPhoto(request, user, teamId, context);
  const form = await readForm(request);
  const intent = String(single(form, "intent") ?? "");
  const here = `/equipos/${teamId}`;
  const at = now(context);
  try {
    switch (intent) {
      case "updateTeam":
        await updateTeam(context.db, user, teamId, teamFields(form), at);
        return redirectWithFlash(context, here, "teamSaved");
      case "removePhoto": {
        const previous = await setRobotPhoto(context.db, user, teamId, null, at);
        await releaseAfterChange(context, previous);
        return redirectWithFlash(context, here, "teamPhotoRemoved");
      }
      case "renewInvitation":
        await renewInvitation(context.db, user, teamId, at);
        return redirectWithFlash(context, `${here}#invitacion`, "teamInvitationRenewed");
      case "removeMember":
        await removeMember(context.db, user, teamId, single(form, "userId"), at);
        return redirectWithFlash(context, here, "teamMemberRemoved");
      case "leaveTeam":
        await leaveTeam(context.db, user, teamId, at);
        return redirectWithFlash(context, here, "teamLeft");
      case "removeCoach":
        await removeCoach(context.db, user, teamId, at);
        return redirectWithFlash(context, here, "teamCoachRemoved");
      case "leaveCoach":
        await leaveAsCoach(context.db, user, teamId, at);
        return redirectWithFlash(context, here, "teamCoachLeft");
      case "withdrawTeam":
        await withdrawTeam(context.db, user, teamId, at);
        return redirectWithFlash(context, here, "teamWithdrawn");
    }
  } catch (error) {
    if (error instanceof TeamError && error.status === 404 && intent !== "removeMember")
      notFound(error.message);
    return refused(error, intent, intent === "updateTeam" ? form : undefined);
  }
  return data<TeamReply>(
    { intent, message: MESSAGES.unknownAction },
    { status: 400, headers: NO_STORE },
  );
}

// ——— /equipos/unirse/:code ———

export async function loadJoin(
  request: Request,
  user: SessionUser | null,
  code: string | undefined,
  context: AppLoadContext,
) {
  // The code typed in the form (?codigo=…) goes to its link.
  const typed = new URL(request.url).searchParams.get("codigo");
  if (code === undefined && typed !== null) {
    const found = await findInvitation(context.db, typed);
    if (found) throw redirect(`/equipos/unirse/${found.code}`);
    return data(
      { invitation: null, typedError: TEAM_MESSAGES.invitationInvalid },
      { status: 404, headers: NO_STORE },
    );
  }
  if (code === undefined)
    return data({ invitation: null, typedError: null }, { headers: NO_STORE });
  const found = await findInvitation(context.db, code);
  if (!found)
    return data(
      { invitation: null, typedError: TEAM_MESSAGES.invitationInvalid },
      { status: 404, headers: NO_STORE },
    );
  // Someone opening an invitation signs in first, and comes back here (the usual redirect).
  if (!user) {
    const back = `/equipos/unirse/${found.code}`;
    throw redirect(`/login?redirectTo=${encodeURIComponent(back)}`);
  }
  return data(
    {
      invitation: {
        code: found.code,
        teamId: found.teamId,
        teamName: found.teamName,
        school: found.school,
        city: found.city,
        categoryName: found.categoryName,
        level: found.level,
        coachRequired: found.coachRequired,
        eventName: found.eventName,
        closesAt: found.closesAt.toISOString(),
      },
      typedError: null,
      coachConsent: COACH_CONSENT,
      timeZone: context.config.siteTimezone,
    },
    { headers: NO_STORE },
  );
}

export async function joinAction(
  request: Request,
  user: SessionUser,
  code: string | undefined,
  context: AppLoadContext,
) {
  const form = await readForm(request);
  const intent = String(single(form, "intent") ?? "");
  try {
    if (intent === "join") {
      const teamId = await joinTeam(context.db, user, code, now(context));
      return redirectWithFlash(context, `/equipos/${teamId}`, "teamJoined");
    }
    if (intent === "coach") {
      const teamId = await confirmCoach(
        context.db,
        user,
        code,
        single(form, "consentimiento"),
        now(context),
        context.config.siteTimezone,
      );
      return redirectWithFlash(context, `/equipos/${teamId}`, "teamCoachConfirmed");
    }
  } catch (error) {
    return refused(error, intent);
  }
  return data<TeamReply>(
    { intent, message: MESSAGES.unknownAction },
    { status: 400, headers: NO_STORE },
  );
}
