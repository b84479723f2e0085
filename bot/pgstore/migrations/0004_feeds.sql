-- The feeds catalog (ingest.Store, as ingest/feedstore keeps it in
-- feeds.db) and each source's progress. change_seq numbers each paper's
-- latest change, so every replica's index can follow what the fetching
-- replica stored. Records are bytea, not jsonb: jsonb refuses the \u0000 an
-- abstract may carry, and a page the fetcher cannot store would stop it.
CREATE TABLE feed_papers (
    paper_id   text PRIMARY KEY,
    change_seq bigint NOT NULL,
    pending    boolean NOT NULL,
    data       bytea NOT NULL
);
CREATE UNIQUE INDEX feed_papers_change ON feed_papers (change_seq);
CREATE INDEX feed_papers_pending ON feed_papers (paper_id) WHERE pending;
CREATE SEQUENCE feed_change_seq;

CREATE TABLE feed_progress (
    source text PRIMARY KEY,
    data   bytea NOT NULL
);
