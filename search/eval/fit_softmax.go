package eval

import "math"

// fitSoftmax fits weights w so that, in each pair, a softmax over the
// competing sentences' scores x·w puts its mass on the rationale sentences
// (cross-entropy against a uniform share over them), with an L2 penalty
// lambda·|w|² on standardised features. The objective is convex; Newton's
// method with a backtracking line search solves it in a few dozen steps.
// Pairs without a rationale sentence among the competitors teach nothing
// and are skipped. Features in fixed keep the weight given there: their part
// of each score is a constant offset the others are fitted around. The
// weights returned apply to the raw features.
func fitSoftmax(pairs []answerPair, dim int, lambda float64, fixed map[int]float64) []float64 {
	var train []answerPair
	for _, p := range pairs {
		if p.reachable() && len(p.x) > 1 {
			train = append(train, p)
		}
	}
	w := make([]float64, dim)
	if len(train) == 0 {
		return w
	}
	// Standardise: a constant shift within a pair leaves its softmax
	// unchanged, so only the scale carries over to the raw weights.
	mean, scale := make([]float64, dim), make([]float64, dim)
	rows := 0
	for _, p := range train {
		for _, x := range p.x {
			rows++
			for k, v := range x {
				mean[k] += v
			}
		}
	}
	for k := range mean {
		mean[k] /= float64(rows)
	}
	for _, p := range train {
		for _, x := range p.x {
			for k, v := range x {
				scale[k] += (v - mean[k]) * (v - mean[k])
			}
		}
	}
	for k := range scale {
		scale[k] = math.Sqrt(scale[k] / float64(rows))
		if scale[k] < 1e-12 {
			scale[k] = 1
		}
	}
	z := make([][][]float64, len(train))
	off := make([][]float64, len(train))
	for pi, p := range train {
		z[pi] = make([][]float64, len(p.x))
		off[pi] = make([]float64, len(p.x))
		for i, x := range p.x {
			z[pi][i] = make([]float64, dim)
			for k, v := range x {
				if fw, ok := fixed[k]; ok {
					off[pi][i] += fw * v
					continue
				}
				z[pi][i][k] = (v - mean[k]) / scale[k]
			}
		}
	}
	scores := func(pi int, w []float64) []float64 {
		s := make([]float64, len(z[pi]))
		for i, zi := range z[pi] {
			s[i] = dot(zi, w) + off[pi][i]
		}
		return s
	}

	n := float64(len(train))
	objective := func(w []float64) float64 {
		var j float64
		for pi, p := range train {
			s := scores(pi, w)
			j += logSumExp(s) - meanOver(s, p.pos)
		}
		return j/n + lambda*dot(w, w)
	}
	for range 100 {
		g := make([]float64, dim)
		h := make([][]float64, dim)
		for k := range h {
			h[k] = make([]float64, dim)
		}
		for pi, p := range train {
			s := scores(pi, w)
			lse := logSumExp(s)
			mu := make([]float64, dim)
			npos := 0
			for i, zi := range z[pi] {
				pr := math.Exp(s[i] - lse)
				for k, v := range zi {
					mu[k] += pr * v
				}
				if p.pos[i] {
					npos++
				}
			}
			for i, zi := range z[pi] {
				pr := math.Exp(s[i] - lse)
				for a := range dim {
					g[a] += pr * zi[a] / n
					if p.pos[i] {
						g[a] -= zi[a] / float64(npos) / n
					}
					for b := range dim {
						h[a][b] += pr * (zi[a] - mu[a]) * (zi[b] - mu[b]) / n
					}
				}
			}
		}
		for k := range dim {
			g[k] += 2 * lambda * w[k]
			h[k][k] += 2 * lambda
		}
		d := solveSPD(h, g)
		before := objective(w)
		step, next := 1.0, make([]float64, dim)
		for range 30 {
			for k := range w {
				next[k] = w[k] - step*d[k]
			}
			if objective(next) <= before {
				break
			}
			step /= 2
		}
		copy(w, next)
		if math.Sqrt(dot(d, d))*step < 1e-9 {
			break
		}
	}
	for k := range w {
		w[k] /= scale[k]
		if fw, ok := fixed[k]; ok {
			w[k] = fw
		}
	}
	return w
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func logSumExp(s []float64) float64 {
	m := math.Inf(-1)
	for _, v := range s {
		m = max(m, v)
	}
	var sum float64
	for _, v := range s {
		sum += math.Exp(v - m)
	}
	return m + math.Log(sum)
}

// meanOver is the mean of s where pick is true.
func meanOver(s []float64, pick []bool) float64 {
	var sum float64
	n := 0
	for i, v := range s {
		if pick[i] {
			sum += v
			n++
		}
	}
	return sum / float64(n)
}

// solveSPD solves h·x = g for a symmetric positive definite h (Cholesky).
func solveSPD(h [][]float64, g []float64) []float64 {
	n := len(g)
	l := make([][]float64, n)
	for i := range l {
		l[i] = make([]float64, n)
	}
	for i := range n {
		for j := 0; j <= i; j++ {
			sum := h[i][j]
			for k := range j {
				sum -= l[i][k] * l[j][k]
			}
			if i == j {
				l[i][i] = math.Sqrt(max(sum, 1e-12))
			} else {
				l[i][j] = sum / l[j][j]
			}
		}
	}
	y := make([]float64, n)
	for i := range n {
		sum := g[i]
		for k := range i {
			sum -= l[i][k] * y[k]
		}
		y[i] = sum / l[i][i]
	}
	x := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		sum := y[i]
		for k := i + 1; k < n; k++ {
			sum -= l[k][i] * x[k]
		}
		x[i] = sum / l[i][i]
	}
	return x
}
