-- Jobs one replica runs at a time (the fetcher, the digest scheduler): the
-- holder renews expires; once it passes, another replica may take over.
CREATE TABLE leases (
    lease_name text PRIMARY KEY,
    holder     text NOT NULL,
    expires    timestamptz NOT NULL
);
