-- Live results (decision 058): every change of a category's entries, draw or state tells the
-- results streams which category changed, after its commit. A row trigger, so that the payload is
-- the category's id; PostgreSQL sends one notification per distinct payload and transaction.
CREATE FUNCTION ayllu_results_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('ayllu_results', to_jsonb(OLD) ->> TG_ARGV[0]);
  ELSE
    PERFORM pg_notify('ayllu_results', to_jsonb(NEW) ->> TG_ARGV[0]);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ayllu_results_judging_runs AFTER INSERT OR UPDATE OR DELETE ON "judging_runs" FOR EACH ROW EXECUTE FUNCTION ayllu_results_changed('category_id');--> statement-breakpoint
CREATE TRIGGER ayllu_results_bracket_draws AFTER INSERT OR UPDATE OR DELETE ON "bracket_draws" FOR EACH ROW EXECUTE FUNCTION ayllu_results_changed('category_id');--> statement-breakpoint
CREATE TRIGGER ayllu_results_bracket_rounds AFTER INSERT OR UPDATE OR DELETE ON "bracket_rounds" FOR EACH ROW EXECUTE FUNCTION ayllu_results_changed('category_id');--> statement-breakpoint
CREATE TRIGGER ayllu_results_score_sheets AFTER INSERT OR UPDATE OR DELETE ON "score_sheets" FOR EACH ROW EXECUTE FUNCTION ayllu_results_changed('category_id');--> statement-breakpoint
CREATE TRIGGER ayllu_results_categories AFTER UPDATE ON "competition_categories" FOR EACH ROW EXECUTE FUNCTION ayllu_results_changed('id');
