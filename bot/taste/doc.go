// Package taste lets a channel's votes steer its digests: papers like the
// ones its readers liked move up, papers like the disliked ones move down
// (Rocchio's relevance feedback over paper vectors), and only papers the
// topic's own search returned are ever ranked, so votes never bring in a
// paper off the topic.
//
// Paper vectors come through Vectors: today the index's term vectors
// (search.Index.TermVector); a semantic model's embeddings can replace them
// without changing the ranking.
package taste
