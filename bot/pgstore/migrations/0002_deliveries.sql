-- Slack deliveries (event, envelope, trigger IDs) claimed or handled by a
-- replica: a retry on another connection finds them here. A claim not
-- finished by held_until (its replica died) may be taken over.
CREATE TABLE deliveries (
    delivery_key text PRIMARY KEY,
    handled      boolean NOT NULL,
    held_until   timestamptz NOT NULL
);
CREATE INDEX deliveries_held_until ON deliveries (held_until);
