package main

import (
	"strings"
	"testing"
	"time"

	"github.com/paperbot/paperbot/bot/digest"
	"github.com/paperbot/paperbot/bot/pgstore"
	"github.com/paperbot/paperbot/bot/pgstore/pgtest"
	"github.com/paperbot/paperbot/bot/slacktest"
)

// leaseTaken is the log line of a replica that starts running the digest
// scheduler.
const leaseTaken = `msg="lease taken: running here" lease=digest-scheduler`

// dueSubscription is a daily digest of "learning" in channel, scheduled a
// minute before now: due at once.
func dueSubscription(channel string, now time.Time) digest.Subscription {
	at := now.UTC().Add(-time.Minute)
	return digest.Subscription{ID: subID(4242), ChannelID: channel, CreatedBy: slacktest.DefaultUser, Topic: "learning",
		Schedule:  digest.Schedule{Hour: at.Hour(), Minute: at.Minute(), TZ: "UTC", Every: digest.Daily},
		CreatedAt: now.Add(-time.Hour)}
}

// SIGKILL of the replica holding the digest scheduler's lease while a
// digest is due: the other replica takes the lease once it expires and
// posts the digest, once, within the lease time and a heartbeat.
func TestReplicaKilledWhileDigestDue(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two serve processes")
	}
	const ttl = 2 * time.Second
	dbURL, _ := pgtest.Fresh(t)
	srv := slacktest.NewServer(slacktest.WithSpread())
	t.Cleanup(srv.Close)
	const channel = "CDIGEST01"
	srv.SetChannel(channel, slacktest.Channel{Member: true})
	env := replicaEnv(srv, dbURL, ttl)
	// The scheduler ticks when its replica takes the lease, then not for
	// ten minutes: only a takeover can post the digest in this test.
	env["PAPERBOT_DIGEST_TICK"] = "10m"
	env["PAPERBOT_DIGEST_POST_EMPTY"] = "true"

	a := startReplica(t, "a", env)
	a.waitLog(t, leaseTaken, 60*time.Second)
	b := startReplica(t, "b", env)
	waitSockets(t, srv, 2)
	if strings.Contains(b.logs.String(), leaseTaken) {
		t.Fatal("both replicas run the digest scheduler")
	}

	db, err := pgstore.Open(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sub := dueSubscription(channel, time.Now())
	if err := db.Create(t.Context(), sub); err != nil {
		t.Fatal(err)
	}

	killed := time.Now()
	a.kill9(t)
	if n := len(digestPosts(srv, channel)); n != 0 {
		t.Fatalf("the holder posted %d digests before it was killed; the test needs it not to have ticked", n)
	}
	if err := srv.WaitFor(ttl+ttl/4+10*time.Second, func() bool { return len(digestPosts(srv, channel)) > 0 }); err != nil {
		t.Fatalf("no digest after the lease holder was killed: %v", err)
	}
	failover := digestPosts(srv, channel)[0].PostedAt.Sub(killed)
	b.waitLog(t, `msg="digest posted"`, 10*time.Second)
	if n := len(digestPosts(srv, channel)); n != 1 {
		t.Fatalf("%d digests posted, want 1", n)
	}
	if !strings.Contains(b.logs.String(), leaseTaken) || !strings.Contains(b.logs.String(), `msg="digest posted"`) {
		t.Errorf("replica b did not take the lease and post the digest")
	}
	if strings.Contains(a.logs.String(), `msg="digest posted"`) {
		t.Errorf("the killed replica had posted the digest")
	}
	// The lease expires at most ttl after the holder's last heartbeat;
	// the other replica asks every ttl/4; the digest search and post take
	// milliseconds. A second of margin for a loaded machine.
	if limit := ttl + ttl/4 + time.Second; failover > limit {
		t.Errorf("digest posted %s after the kill, want within %s (lease %s)", failover, limit, ttl)
	}
	t.Logf("failover: kill -9 of the lease holder -> digest posted by the other replica in %s (lease TTL %s)", failover.Round(time.Millisecond), ttl)
}

// digestPosts are the bot's top-level posts in channel.
func digestPosts(srv *slacktest.Server, channel string) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range srv.Messages(channel) {
		if m.Source == "chat.postMessage" && m.ThreadTS == "" {
			out = append(out, m)
		}
	}
	return out
}
