package corpus

import (
	"encoding/binary"
	"errors"
	"time"
)

// The spool's record encoding: a paper is its fields in declaration order,
// each a uvarint length and bytes (strings), a varint (Year), a uvarint
// count plus one and the strings (lists; 0 is a nil list), or a length and
// time.Time.MarshalBinary (times; length 0 is the zero time). It is private
// to one process's spool files, so it has no version.

// appendPaper appends p's encoding to buf.
func appendPaper(buf []byte, p *Paper) []byte {
	buf = appendString(buf, p.ID)
	buf = appendString(buf, p.Title)
	buf = appendString(buf, p.Headline)
	buf = appendList(buf, p.Authors)
	buf = appendString(buf, p.Venue)
	buf = binary.AppendVarint(buf, int64(p.Year))
	buf = appendString(buf, p.URL)
	buf = appendList(buf, p.CodeURLs)
	buf = appendString(buf, p.Abstract)
	buf = appendList(buf, p.Keywords)
	buf = appendList(buf, p.Categories)
	buf = appendTime(buf, p.Announced)
	buf = appendTime(buf, p.FirstSeen)
	return appendString(buf, p.Source)
}

func appendString(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

func appendList(buf []byte, ss []string) []byte {
	if ss == nil {
		return append(buf, 0)
	}
	buf = binary.AppendUvarint(buf, uint64(len(ss))+1)
	for _, s := range ss {
		buf = appendString(buf, s)
	}
	return buf
}

// appendTime keeps the instant and the zone offset (not the zone's name).
func appendTime(buf []byte, t time.Time) []byte {
	if t.IsZero() {
		return append(buf, 0)
	}
	b, err := t.MarshalBinary()
	if err != nil { // a zone offset that is not whole minutes: keep the instant
		b, _ = t.UTC().MarshalBinary()
	}
	buf = binary.AppendUvarint(buf, uint64(len(b)))
	return append(buf, b...)
}

// errDamaged is a record that does not decode.
var errDamaged = errors.New("damaged record")

// decoder reads fields off a record; the first failure sticks.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errDamaged
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) bytes() []byte {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.b)) {
		d.err = errDamaged
		return nil
	}
	b := d.b[:n]
	d.b = d.b[n:]
	return b
}

func (d *decoder) string() string { return string(d.bytes()) }

func (d *decoder) list() []string {
	n := d.uvarint()
	if n == 0 || d.err != nil {
		return nil
	}
	if n-1 > uint64(len(d.b)) { // every string takes a byte at least
		d.err = errDamaged
		return nil
	}
	ss := make([]string, n-1)
	for i := range ss {
		ss[i] = d.string()
	}
	return ss
}

func (d *decoder) time() time.Time {
	b := d.bytes()
	var t time.Time
	if len(b) > 0 && d.err == nil {
		if err := t.UnmarshalBinary(b); err != nil {
			d.err = errDamaged
		}
	}
	return t
}

// decodePaper sets every field of p from a record made by appendPaper.
func decodePaper(rec []byte, p *Paper) error {
	d := decoder{b: rec}
	p.ID = d.string()
	p.Title = d.string()
	p.Headline = d.string()
	p.Authors = d.list()
	p.Venue = d.string()
	year, n := binary.Varint(d.b)
	if n <= 0 {
		return errDamaged
	}
	p.Year, d.b = int(year), d.b[n:]
	p.URL = d.string()
	p.CodeURLs = d.list()
	p.Abstract = d.string()
	p.Keywords = d.list()
	p.Categories = d.list()
	p.Announced = d.time()
	p.FirstSeen = d.time()
	p.Source = d.string()
	if d.err == nil && len(d.b) != 0 {
		return errDamaged
	}
	return d.err
}
