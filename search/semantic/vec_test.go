package semantic

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// randomUnit returns n random unit vectors of dims values.
func randomUnit(rng *rand.Rand, n, dims int) [][]float32 {
	out := make([][]float32, n)
	for i := range out {
		v := make([]float32, dims)
		for j := range v {
			v[j] = float32(rng.NormFloat64())
		}
		Normalize(v)
		out[i] = v
	}
	return out
}

func dotF(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func TestVecDotApproximatesCosine(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		dims    int
		bits    int
		maxErr  float64
		encoded int
	}{
		{256, 8, 0.01, 264}, {384, 8, 0.01, 392}, {504, 8, 0.01, 512},
		{768, 4, 0.03, 392}, {1008, 4, 0.03, 512},
	} {
		vs := randomUnit(rng, 50, c.dims)
		q := randomUnit(rng, 1, c.dims)[0]
		for _, v := range vs {
			// Mix in the query so that cosines span a useful range.
			for j := range v {
				v[j] += q[j] * float32(rng.Float64())
			}
			Normalize(v)
			qv, err := Quantize(v)
			if err != nil {
				t.Fatal(err)
			}
			if qv.bits != c.bits {
				t.Errorf("%d dims: %d bits, want %d", c.dims, qv.bits, c.bits)
			}
			if got, want := qv.Dot(q), dotF(q, v); math.Abs(float64(got-want)) > c.maxErr {
				t.Errorf("%d dims: Dot = %v, exact %v", c.dims, got, want)
			}
			b, err := qv.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if len(b) != c.encoded || len(b) > MaxVecBytes {
				t.Errorf("%d dims: %d bytes, want %d", c.dims, len(b), c.encoded)
			}
			var back Vec
			if err := back.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
			if back.Dot(q) != qv.Dot(q) {
				t.Errorf("%d dims: round trip changed Dot", c.dims)
			}
			f := qv.Float32()
			if got := dotF(q, f); math.Abs(float64(got-qv.Dot(q))) > 1e-5 {
				t.Errorf("%d dims: Float32 · q = %v, Dot = %v", c.dims, got, qv.Dot(q))
			}
		}
	}
}

func TestQuantizeRejects(t *testing.T) {
	for name, v := range map[string][]float32{
		"empty":          nil,
		"too many dims":  make([]float32, MaxVecDims4+1),
		"NaN":            {1, float32(math.NaN())},
		"infinite value": {float32(math.Inf(-1)), 0},
	} {
		if _, err := Quantize(v); !errors.Is(err, ErrDims) {
			t.Errorf("%s: Quantize = %v, want ErrDims", name, err)
		}
	}
}

func TestVecZero(t *testing.T) {
	v, err := Quantize(make([]float32, 8))
	if err != nil {
		t.Fatal(err)
	}
	if d := v.Dot([]float32{1, 1, 1, 1, 1, 1, 1, 1}); d != 0 {
		t.Errorf("zero Dot = %v", d)
	}
	if d := v.Dot([]float32{1}); d != 0 {
		t.Errorf("Dot with a short query = %v, want 0", d)
	}
}

func TestVecUnmarshalRejectsDamage(t *testing.T) {
	v, err := Quantize(randomUnit(rand.New(rand.NewPCG(5, 6)), 1, 256)[0])
	if err != nil {
		t.Fatal(err)
	}
	good, err := v.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	damage := map[string]func([]byte) []byte{
		"empty":       func(b []byte) []byte { return nil },
		"truncated":   func(b []byte) []byte { return b[:len(b)-1] },
		"extended":    func(b []byte) []byte { return append(b, 0) },
		"flipped bit": func(b []byte) []byte { b[100] ^= 4; return b },
		"version":     func(b []byte) []byte { b[0] = 2; return b },
		"bits":        func(b []byte) []byte { b[1] = 4; return b },
		"dims":        func(b []byte) []byte { b[2] = 255; return b },
	}
	for name, d := range damage {
		var back Vec
		if err := back.UnmarshalBinary(d(append([]byte(nil), good...))); !errors.Is(err, ErrBadVec) {
			t.Errorf("%s: UnmarshalBinary = %v, want ErrBadVec", name, err)
		}
	}
}
