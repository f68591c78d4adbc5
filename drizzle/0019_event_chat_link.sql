-- An event's group chat link (decision 047): shown only to those with a place.
ALTER TABLE "events" ADD COLUMN "chat_link" text;