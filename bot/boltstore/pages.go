package boltstore

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
)

// This file reads a bbolt file's pages from a byte slice, without bbolt.
//
// Why: bbolt mmaps the file and trusts every page id it finds. A file cut
// short faults with SIGBUS when a page past its end is touched, a page id
// pointing outside the mapping faults with SIGSEGV (neither can be
// recovered), and a garbage page panics. So before bbolt sees a file, every
// page it could reach from the meta page it would pick is bounds-checked
// here. The layout is bbolt's on-disk format, version 2 (go.etcd.io/bbolt
// internal/common: page.go, meta.go, bucket.go), in the little-endian byte
// order of every platform paperbot is built for.

const (
	boltMagic   = 0xED0CDAED
	boltVersion = 2

	pageHeaderSize  = 16 // id u64, flags u16, count u16, overflow u32
	elementSize     = 16 // branch: pos u32, ksize u32, pgid u64; leaf: flags u32, pos u32, ksize u32, vsize u32
	bucketHeaderLen = 16 // root pgid u64, sequence u64; an inline bucket's page follows
	metaChecksumEnd = 56 // the checksum covers the meta's first 56 bytes

	flagBranch   = 0x01
	flagLeaf     = 0x02
	flagFreelist = 0x10
	leafIsBucket = 0x01
	noFreelist   = ^uint64(0)

	// maxDepth bounds recursion through branch pages and nested buckets; a
	// paperbot store is three levels deep, a B+tree of millions of keys ten.
	maxDepth = 64
)

// boltMeta is the part of a meta page the checks need.
type boltMeta struct {
	pageSize uint32
	root     uint64 // the root bucket's page
	freelist uint64
	pgid     uint64 // high-water mark: pages in use by the last commit
	txid     uint64
}

var le = binary.LittleEndian

// readMeta decodes and verifies the meta page at the start of b.
func readMeta(b []byte) (boltMeta, error) {
	if len(b) < pageHeaderSize+metaChecksumEnd+8 {
		return boltMeta{}, fmt.Errorf("too short for a meta page")
	}
	m := b[pageHeaderSize:]
	if le.Uint32(m[0:]) != boltMagic {
		return boltMeta{}, fmt.Errorf("no bbolt magic number")
	}
	if v := le.Uint32(m[4:]); v != boltVersion {
		return boltMeta{}, fmt.Errorf("bbolt format version %d, want %d", v, boltVersion)
	}
	h := fnv.New64a()
	h.Write(m[:metaChecksumEnd])
	if h.Sum64() != le.Uint64(m[metaChecksumEnd:]) {
		return boltMeta{}, fmt.Errorf("checksum mismatch")
	}
	return boltMeta{pageSize: le.Uint32(m[8:]), root: le.Uint64(m[16:]), freelist: le.Uint64(m[32:]),
		pgid: le.Uint64(m[40:]), txid: le.Uint64(m[48:])}, nil
}

// hasMagic reports whether b starts like a bbolt meta page, valid or not.
func hasMagic(b []byte) bool {
	return len(b) >= pageHeaderSize+4 && le.Uint32(b[pageHeaderSize:]) == boltMagic
}

// looksLikeBoltPages reports whether most pages after the first two carry
// bbolt page headers (their own id, a page type), for a file whose meta
// pages are both gone: damage to a store, not some other file.
func looksLikeBoltPages(file []byte) bool {
	for _, ps := range []int{4096, 8192, 16384, 65536} {
		pages, hits := len(file)/ps, 0
		for id := 2; id < pages; id++ {
			h := file[id*ps:]
			if le.Uint64(h) == uint64(id) && (h[8] == flagBranch || h[8] == flagLeaf || h[8] == flagFreelist) && h[9] == 0 {
				hits++
			}
		}
		if pages > 2 && hits > (pages-2)/2 {
			return true
		}
	}
	return false
}

// pickMeta chooses the meta page bbolt would: the page size comes from the
// first meta page, or from the second found at 1 KB to 16 MB (as
// bbolt.getPageSize probes); of the two, the valid one with the higher
// transaction id.
func pickMeta(file []byte) (boltMeta, error) {
	pageSize := 0
	m0, err0 := readMeta(file)
	if err0 == nil {
		pageSize = int(m0.pageSize)
	} else {
		for i := 0; i <= 14; i++ {
			pos := 1024 << i
			if pos >= len(file)-1024 {
				break
			}
			if m, err := readMeta(file[pos:]); err == nil {
				pageSize = int(m.pageSize)
				break
			}
		}
	}
	if pageSize < 1024 || pageSize > 16<<20 || pageSize&(pageSize-1) != 0 {
		if !hasMagic(file) && !looksLikeBoltPages(file) {
			return boltMeta{}, foreignf("not a bbolt database (no bbolt header)")
		}
		return boltMeta{}, damagedf("both meta pages are unreadable (first: %v)", err0)
	}
	var m1 boltMeta
	err1 := fmt.Errorf("missing")
	if len(file) >= 2*pageSize {
		m1, err1 = readMeta(file[pageSize:])
	}
	switch {
	case err0 == nil && err1 == nil && m0.pageSize != m1.pageSize:
		return boltMeta{}, damagedf("the meta pages disagree on the page size (%d and %d)", m0.pageSize, m1.pageSize)
	case err0 == nil && (err1 != nil || m0.txid >= m1.txid):
		return m0, nil
	case err1 == nil:
		return m1, nil
	}
	return boltMeta{}, damagedf("both meta pages are unreadable (%v; %v)", err0, err1)
}

// page is one page (with its overflow pages) or an inline bucket's page.
type page struct {
	id    uint64 // 0 for an inline page
	flags uint16
	count int
	data  []byte // the whole page, header included
}

// element returns the i-th element's bytes and the slice positions are
// relative to (bbolt stores key offsets from the element itself).
func (p page) element(i int) (elem, rest []byte, err error) {
	off := pageHeaderSize + i*elementSize
	if off+elementSize > len(p.data) {
		return nil, nil, fmt.Errorf("element %d lies outside the page", i)
	}
	return p.data[off : off+elementSize], p.data[off:], nil
}

// span returns rest[pos:pos+n], or an error when it leaves the page.
func span(rest []byte, pos, n uint32) ([]byte, error) {
	end := uint64(pos) + uint64(n)
	if end > uint64(len(rest)) {
		return nil, fmt.Errorf("a key or value runs past the end of its page")
	}
	return rest[pos:end], nil
}

// readPage returns page id of a file whose last commit uses hwm pages.
func readPage(file []byte, pageSize int, hwm, id uint64) (page, error) {
	if id < 2 || id >= hwm {
		return page{}, fmt.Errorf("page %d is outside the pages in use (2 to %d)", id, hwm-1)
	}
	start := id * uint64(pageSize)
	if start+pageHeaderSize > uint64(len(file)) {
		return page{}, fmt.Errorf("page %d lies past the end of the file", id)
	}
	h := file[start:]
	overflow := uint64(le.Uint32(h[12:]))
	if id+overflow >= hwm {
		return page{}, fmt.Errorf("page %d overflows past the pages in use", id)
	}
	end := start + (overflow+1)*uint64(pageSize)
	if end > uint64(len(file)) {
		return page{}, fmt.Errorf("page %d runs past the end of the file", id)
	}
	if got := le.Uint64(h[0:]); got != id {
		return page{}, fmt.Errorf("page %d says it is page %d", id, got)
	}
	return page{id: id, flags: le.Uint16(h[8:]), count: int(le.Uint16(h[10:])), data: file[start:end]}, nil
}

// inlinePage returns the page an inline bucket's value carries.
func inlinePage(v []byte) (page, error) {
	b := v[bucketHeaderLen:]
	if len(b) < pageHeaderSize {
		return page{}, fmt.Errorf("an inline bucket is too short")
	}
	return page{flags: le.Uint16(b[8:]), count: int(le.Uint16(b[10:])), data: b}, nil
}
