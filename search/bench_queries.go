package search

// BenchmarkQueries are the queries speed is measured with, in the package's
// benchmarks and in cmd/paperbench: keywords, filters, acronyms, typos,
// questions and an absent topic.
var BenchmarkQueries = []string{
	"KV cache",
	"which papers make LLM prefill faster?",
	"graph neural networks",
	"MLIP",
	"key-value cache compression for long context",
	"transfomer attention",
	"diffusion models for image generation",
	"reinforcement learning from human feedback",
	"which paper rediscovers the Kramers-Wannier duality?",
	`"flow matching" -image`,
	"federated learning privacy year:2024",
	"title:transformer has:code",
	"how can we make language models more robust to adversarial attacks?",
	"recipes for sourdough bread",
	"equivariant neural networks for molecules",
	"offline reinforcement learning",
	"Bayesian optimization with Gaussian processes",
	"what is the sample complexity of learning in MDPs?",
	"sparse autoencoders interpretability",
	"author:bengio",
}
