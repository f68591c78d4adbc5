-- Live results (decision 058): the teams in play change too. A team approved or withdrawn, its
-- members, their check-in at the door and its robot's inspection (decision 055) decide which teams
-- a category shows; each change tells the results streams which category, after its commit.
CREATE TRIGGER ayllu_results_competition_teams AFTER INSERT OR UPDATE OR DELETE ON "competition_teams" FOR EACH ROW EXECUTE FUNCTION ayllu_results_changed('category_id');--> statement-breakpoint
CREATE TRIGGER ayllu_results_team_members AFTER INSERT OR UPDATE OR DELETE ON "team_members" FOR EACH ROW EXECUTE FUNCTION ayllu_results_changed('category_id');--> statement-breakpoint
CREATE FUNCTION ayllu_results_inspected() RETURNS trigger LANGUAGE plpgsql
-- The tables where the migration made them, whatever search_path a later session has.
SET search_path FROM CURRENT AS $$
DECLARE
  changed uuid;
BEGIN
  IF TG_OP = 'DELETE' THEN changed := OLD.team_id; ELSE changed := NEW.team_id; END IF;
  PERFORM pg_notify('ayllu_results', t.category_id::text)
    FROM competition_teams t WHERE t.id = changed;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ayllu_results_team_inspections AFTER INSERT OR UPDATE OR DELETE ON "team_inspections" FOR EACH ROW EXECUTE FUNCTION ayllu_results_inspected();--> statement-breakpoint
-- A check-in at the door (or its undoing) of a team's member or coach: that team's category.
-- Check-ins of events without competitions find no team and send nothing.
CREATE FUNCTION ayllu_results_checked_in() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
DECLARE
  changed_user uuid;
  changed_event uuid;
BEGIN
  -- A registration or its end without a check-in changes no team's place.
  IF TG_OP = 'DELETE' THEN
    IF OLD.checked_in_at IS NULL THEN RETURN NULL; END IF;
    changed_user := OLD.user_id;
    changed_event := OLD.event_id;
  ELSE
    IF TG_OP = 'INSERT' AND NEW.checked_in_at IS NULL THEN RETURN NULL; END IF;
    IF TG_OP = 'UPDATE' AND NEW.checked_in_at IS NOT DISTINCT FROM OLD.checked_in_at THEN
      RETURN NULL;
    END IF;
    changed_user := NEW.user_id;
    changed_event := NEW.event_id;
  END IF;
  PERFORM pg_notify('ayllu_results', c.category_id::text)
    FROM (
      SELECT t.category_id FROM team_members m JOIN competition_teams t ON t.id = m.team_id
        WHERE m.user_id = changed_user AND t.event_id = changed_event
      UNION
      SELECT t.category_id FROM competition_teams t WHERE t.coach_id = changed_user AND t.event_id = changed_event
    ) c;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ayllu_results_participations AFTER INSERT OR UPDATE OF "checked_in_at" OR DELETE ON "participations" FOR EACH ROW EXECUTE FUNCTION ayllu_results_checked_in();
--> statement-breakpoint
-- Visitors' copies of the results pages (decision 015's page cache) show the teams in play: an
-- inspection changes them too.
CREATE TRIGGER ayllu_pages_team_inspections AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "team_inspections" FOR EACH STATEMENT EXECUTE FUNCTION ayllu_pages_changed();
