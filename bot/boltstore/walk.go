package boltstore

import (
	"fmt"
	"strconv"
)

// rawBucket is a bucket as read from the file's pages by walkFile.
type rawBucket struct {
	buckets map[string]*rawBucket
	values  []rawValue // in key order
}

type rawValue struct{ key, value []byte }

func newRawBucket() *rawBucket { return &rawBucket{buckets: map[string]*rawBucket{}} }

// fileTree is what walkFile found: the tree the last good commit points at,
// and every problem met on the way.
type fileTree struct {
	meta     boltMeta
	root     *rawBucket
	problems []string // empty for a sound file
}

// walkFile reads every bucket and value reachable from the meta page bbolt
// would use, bounds-checking each page first. A problem (a file cut short
// included) is noted and the subtree it spoils skipped, so repair keeps what
// the rest holds; the error is for a file with no usable meta page, where
// nothing can be read.
func walkFile(file []byte) (fileTree, error) {
	m, err := pickMeta(file)
	if err != nil {
		return fileTree{}, err
	}
	ps := uint64(m.pageSize)
	size := uint64(len(file))
	w := &walker{file: file, pageSize: int(ps), hwm: m.pgid, seen: map[uint64]bool{}}
	switch {
	case m.pgid > size/ps:
		w.problem("it is %d bytes but its last commit uses %d pages of %d bytes (%d bytes): the file was cut short",
			size, m.pgid, ps, m.pgid*ps) // readPage refuses the pages past the end; the rest is read
	case size%ps != 0:
		w.problem("it is %d bytes, not a whole number of %d-byte pages: the file was cut or padded", size, ps)
	case size < 4*ps:
		w.problem("it is %d bytes, shorter than the smallest bbolt file (4 pages, %d bytes)", size, 4*ps)
	}
	w.checkFreelist(m.freelist)
	t := fileTree{meta: m, root: newRawBucket()}
	w.walk(t.root, m.root, nil, 0, "the root bucket")
	t.problems = w.problems
	return t, nil
}

type walker struct {
	file     []byte
	pageSize int
	hwm      uint64
	seen     map[uint64]bool // pages reached so far: a page reached twice is a loop or a cross-link
	problems []string
}

func (w *walker) problem(format string, args ...any) {
	w.problems = append(w.problems, fmt.Sprintf(format, args...))
}

// checkFreelist checks the free-page list bbolt loads when it opens a file:
// a page of the right type whose ids are all pages in use.
func (w *walker) checkFreelist(id uint64) {
	if id == noFreelist {
		return
	}
	p, err := readPage(w.file, w.pageSize, w.hwm, id)
	if err != nil {
		w.problem("free-page list: %v", err)
		return
	}
	if p.flags != flagFreelist {
		w.problem("free-page list: page %d is not a free-page list (flags %#x)", id, p.flags)
		return
	}
	w.claim(p)
	first, n := pageHeaderSize, uint64(p.count)
	if p.count == 0xFFFF { // the real count is in the first slot
		if len(p.data) < pageHeaderSize+8 {
			w.problem("free-page list: page %d is too short", id)
			return
		}
		first, n = pageHeaderSize+8, le.Uint64(p.data[pageHeaderSize:])
	}
	if n > uint64(len(p.data)-first)/8 {
		w.problem("free-page list: page %d claims %d entries, more than it holds", id, n)
		return
	}
	for i := range n {
		if free := le.Uint64(p.data[uint64(first)+8*i:]); free < 2 || free >= w.hwm {
			w.problem("free-page list: lists page %d, outside the pages in use", free)
			return
		}
	}
}

// claim marks p's pages as reached, reporting a page reached before.
func (w *walker) claim(p page) bool {
	pages := uint64(len(p.data) / w.pageSize)
	for i := range pages {
		if w.seen[p.id+i] {
			w.problem("page %d is reached twice (a loop or two parents)", p.id+i)
			return false
		}
	}
	for i := range pages {
		w.seen[p.id+i] = true
	}
	return true
}

// walk reads the tree under page id (or the inline page, when id is 0) into b.
func (w *walker) walk(b *rawBucket, id uint64, inline []byte, depth int, where string) {
	if depth > maxDepth {
		w.problem("%s: nested deeper than %d levels", where, maxDepth)
		return
	}
	var p page
	var err error
	if id == 0 {
		p, err = inlinePage(inline)
	} else if p, err = readPage(w.file, w.pageSize, w.hwm, id); err == nil && !w.claim(p) {
		return
	}
	if err != nil {
		w.problem("%s: %v", where, err)
		return
	}
	switch {
	case p.flags == flagBranch && id != 0:
		for i := range p.count {
			e, rest, err := p.element(i)
			if err == nil {
				_, err = span(rest, le.Uint32(e[0:]), le.Uint32(e[4:]))
			}
			if err != nil {
				w.problem("%s: branch page %d: %v", where, id, err)
				return
			}
			w.walk(b, le.Uint64(e[8:]), nil, depth+1, where)
		}
	case p.flags == flagLeaf:
		w.leaf(b, p, depth, where)
	default:
		w.problem("%s: page %d is neither a branch nor a leaf (flags %#x)", where, id, p.flags)
	}
}

// leaf reads a leaf page's values and descends into its nested buckets.
func (w *walker) leaf(b *rawBucket, p page, depth int, where string) {
	for i := range p.count {
		e, rest, err := p.element(i)
		if err != nil { // the count is wrong: no later element is inside the page either
			w.problem("%s: leaf page %d: %v", where, p.id, err)
			return
		}
		k, err := span(rest, le.Uint32(e[4:]), le.Uint32(e[8:]))
		var v []byte
		if err == nil {
			v, err = span(rest, le.Uint32(e[4:])+le.Uint32(e[8:]), le.Uint32(e[12:]))
		}
		if err != nil { // each element locates its own key and value: the others may still read
			w.problem("%s: leaf page %d, element %d: %v", where, p.id, i, err)
			continue
		}
		if le.Uint32(e[0:])&leafIsBucket == 0 {
			b.values = append(b.values, rawValue{k, v})
			continue
		}
		name := fmt.Sprintf("bucket %s", strconv.Quote(string(k)))
		if len(v) < bucketHeaderLen {
			w.problem("%s: %s has a malformed header", where, name)
			continue
		}
		child := newRawBucket()
		b.buckets[string(k)] = child
		w.walk(child, le.Uint64(v[0:]), v, depth+1, name)
	}
}
