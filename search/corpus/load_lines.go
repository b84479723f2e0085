package corpus

import (
	"bufio"
	"bytes"
	"io"
)

// lineReader yields the lines of a stream as bytes.Lines does (each with
// its newline; the last may lack one), reusing one buffer: a line is valid
// until the next call. A line may be of any length: the limits on a record
// apply to its fields once parsed (see Limits), as when files were read
// whole.
type lineReader struct {
	r   *bufio.Reader
	buf []byte
	err error // the read error that ended the lines, other than io.EOF
}

// next returns the next line, or false at the end or on a read error
// (then err is set).
func (lr *lineReader) next() ([]byte, bool) {
	line, err := lr.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		lr.buf = append(lr.buf[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = lr.r.ReadSlice('\n')
			lr.buf = append(lr.buf, line...)
		}
		line = lr.buf
	}
	switch {
	case err == io.EOF:
		return line, len(line) > 0
	case err != nil:
		lr.err = err
		return nil, false
	}
	return line, true
}

// lineTracker passes a stream through to a json.Decoder and tells the line
// of offsets in it, which must not decrease from one call to the next: it
// keeps only the bytes read past the last offset asked for.
type lineTracker struct {
	r    io.Reader
	buf  []byte // the stream from off on, as far as it was read
	off  int64
	line int // newlines before off
}

func (t *lineTracker) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.buf = append(t.buf, p[:n]...)
	return n, err
}

// at returns the 1-based line of offset off (see lineAt).
func (t *lineTracker) at(off int64) int {
	k := max(0, min(off-t.off, int64(len(t.buf))))
	t.line += bytes.Count(t.buf[:k], []byte("\n"))
	t.buf = append(t.buf[:0], t.buf[k:]...)
	t.off += k
	return t.line + 1
}

// skipSpaceComma is skipSpaceComma over the stream.
func (t *lineTracker) skipSpaceComma(off int64) int64 {
	return t.off + skipSpaceComma(t.buf, off-t.off)
}
