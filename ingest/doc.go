// Package ingest follows the paper services an install is configured for
// (PAPERBOT_SOURCES) and keeps what they announced in a Catalog: one entry
// per paper, however many sources, versions and cross-lists announced it,
// with the instant paperbot first saw it. The catalog's papers join the
// operator's files in the corpus the index is built from, so they survive
// restarts and full rebuilds.
//
// Network access goes through package ingest/sources; persistence through
// the Store interface (package ingest/feedstore keeps it in bbolt). Package
// search never imports this one.
package ingest
