-- paperbot's state, as bot/boltstore keeps it: records are the same JSON,
-- with the columns queries filter or sort on beside them.
CREATE TABLE subscriptions (
    id         text PRIMARY KEY,
    channel_id text NOT NULL,
    created_by text NOT NULL,
    paused     boolean NOT NULL,
    data       jsonb NOT NULL
);
CREATE INDEX subscriptions_channel ON subscriptions (channel_id);
CREATE INDEX subscriptions_creator ON subscriptions (created_by);

-- One row per digest run key: the primary key is what makes a claim
-- exclusive across replicas.
CREATE TABLE digest_runs (
    run_key text PRIMARY KEY,
    state   text NOT NULL,
    data    jsonb NOT NULL
);
CREATE INDEX digest_runs_unfinished ON digest_runs (state) WHERE state IN ('claimed', 'posting');

-- The papers each channel's digests have posted, and the run that did.
CREATE TABLE digest_ledger (
    channel_id text NOT NULL,
    paper_id   text NOT NULL,
    run_key    text NOT NULL,
    PRIMARY KEY (channel_id, paper_id)
);

CREATE TABLE saved_papers (
    owner    text NOT NULL, -- memory.Owner.String()
    paper_id text NOT NULL,
    saved_by text NOT NULL,
    data     jsonb NOT NULL,
    PRIMARY KEY (owner, paper_id)
);
CREATE INDEX saved_papers_saved_by ON saved_papers (saved_by);

CREATE TABLE votes (
    channel_id text NOT NULL,
    paper_id   text NOT NULL,
    user_id    text NOT NULL,
    data       jsonb NOT NULL,
    PRIMARY KEY (channel_id, paper_id, user_id)
);
CREATE INDEX votes_user ON votes (user_id);

CREATE TABLE threads (
    channel_id text NOT NULL,
    ts         text NOT NULL,
    expires    timestamptz NOT NULL,
    data       jsonb NOT NULL,
    PRIMARY KEY (channel_id, ts)
);
CREATE INDEX threads_expires ON threads (expires);

-- ingest.LinkFinder's cache; stored_ns keeps the time to the nanosecond.
CREATE TABLE links (
    link_key  text PRIMARY KEY,
    stored_ns bigint NOT NULL,
    val       bytea NOT NULL
);
CREATE INDEX links_stored ON links (stored_ns);
