package corpus

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"unsafe"
)

// The snapshot body is the corpus in a flat binary layout: counts as
// uvarints, strings as a uvarint length and the bytes, lists as a count and
// strings, then a CRC-32 (Castagnoli) of all that. gob was three times
// slower to read back at 100k papers (one message that grows its buffer by
// copying); this reads at memory speed, and every string of the decoded
// corpus is a slice of one block, allocated once.

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// appendCorpus appends the body of c's snapshot to buf.
func appendCorpus(buf []byte, c *Corpus) []byte {
	start := len(buf)
	buf = binary.AppendUvarint(buf, uint64(c.Skipped))
	buf = binary.AppendUvarint(buf, uint64(c.Duplicates))
	buf = appendFields(buf, c.Problems...)
	buf = appendFields(buf, c.Files...)
	buf = binary.AppendUvarint(buf, uint64(len(c.Papers)))
	for i := range c.Papers {
		p := &c.Papers[i]
		buf = binary.AppendVarint(buf, int64(p.Year))
		buf = appendFields(buf, p.ID, p.Title, p.Headline, p.Venue, p.URL, p.Abstract, p.Source)
		buf = appendFields(buf, p.Authors...)
		buf = appendFields(buf, p.CodeURLs...)
		buf = appendFields(buf, p.Keywords...)
	}
	return binary.LittleEndian.AppendUint32(buf, crc32.Checksum(buf[start:], crcTable))
}

// appendChecksum appends the CRC-32 of data to it.
func appendChecksum(data []byte) []byte {
	return binary.LittleEndian.AppendUint32(data, crc32.Checksum(data, crcTable))
}

var errSnapshot = errors.New("damaged corpus snapshot")

// decodeCorpus reads a body written by appendCorpus. The strings of the
// result share body's memory, so body must not change afterwards.
func decodeCorpus(body []byte) (*Corpus, error) {
	if len(body) < 4 {
		return nil, errSnapshot
	}
	data, sum := body[:len(body)-4], binary.LittleEndian.Uint32(body[len(body)-4:])
	if crc32.Checksum(data, crcTable) != sum {
		return nil, errSnapshot
	}
	d := &snapDecoder{s: unsafe.String(unsafe.SliceData(data), len(data))}
	c := &Corpus{Skipped: d.count(), Duplicates: d.count(), Problems: d.list(false), Files: d.list(false)}
	n := d.count()
	if n > len(data) { // each paper takes bytes: a bad count, not an allocation
		return nil, errSnapshot
	}
	c.Papers = make([]Paper, n)
	for i := range c.Papers {
		p := &c.Papers[i]
		year, k := binary.Varint([]byte(d.s[d.off:min(len(d.s), d.off+binary.MaxVarintLen64)]))
		if k <= 0 {
			return nil, errSnapshot
		}
		d.off += k
		p.Year = int(year)
		if d.count() != 7 {
			return nil, errSnapshot
		}
		p.ID, p.Title, p.Headline, p.Venue, p.URL, p.Abstract, p.Source = d.str(), d.str(), d.str(), d.str(), d.str(), d.str(), d.str()
		// Loaded papers never have nil Authors or CodeURLs (JSON arrays).
		p.Authors, p.CodeURLs, p.Keywords = d.list(true), d.list(true), d.list(false)
	}
	if d.err || d.off != len(d.s) {
		return nil, errSnapshot
	}
	return c, nil
}

// snapDecoder reads from s; any malformed input sets err and yields zero
// values from then on.
type snapDecoder struct {
	s   string
	off int
	err bool
}

func (d *snapDecoder) count() int {
	if d.err {
		return 0
	}
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		if d.off >= len(d.s) {
			break
		}
		b := d.s[d.off]
		d.off++
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			if v > uint64(len(d.s)) {
				break // no count or length exceeds the input
			}
			return int(v)
		}
	}
	d.err = true
	return 0
}

func (d *snapDecoder) str() string {
	n := d.count()
	if d.err || n > len(d.s)-d.off {
		d.err = true
		return ""
	}
	s := d.s[d.off : d.off+n]
	d.off += n
	return s
}

// list reads a count and strings; empty gives nil unless nonNil.
func (d *snapDecoder) list(nonNil bool) []string {
	n := d.count()
	if d.err || n > len(d.s)-d.off {
		d.err = true
		return nil
	}
	if n == 0 && !nonNil {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}
