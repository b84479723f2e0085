// Package digest holds channel subscriptions and the daily digests posted for
// them: the domain (Subscription, Schedule, Digest), the Store, Searcher,
// Poster and Notifier interfaces it consumes, and the Scheduler that posts
// each digest exactly once.
//
// It imports no adapter: Slack lives in package bot, the embedded database in
// bot/boltstore, the index in search (whose request and result types are used
// here as plain values).
//
// Exactly once. A digest run is identified by a RunKey (subscription ID, local
// date). The Scheduler claims the run in the Store (one claimer wins), records
// the chosen paper IDs, posts with the run key attached to the message, and
// then marks the run posted, adds the papers to the channel's ledger and
// counts them in one transaction. A process killed between the post and that
// transaction leaves the run "posting"; on restart the Scheduler asks the
// Poster whether a message with that run key exists (Find) and either records
// it or posts the recorded papers. Nothing is posted twice and nothing
// claimed is forgotten.
package digest
