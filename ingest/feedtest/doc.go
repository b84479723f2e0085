// Package feedtest stands up fake arXiv (RSS and OAI-PMH) and OpenReview
// services on loopback for tests. Their bodies are the recorded real
// responses in shared/feeds, adapted: the recorded envelopes and item shapes
// carry the papers a test announces on each simulated day. The server can
// answer with 503 storms (Retry-After) and run a hook on any request (to
// kill a harvest half-way).
package feedtest
