package events

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"strconv"
	"time"
)

// Hasher recomputes event hashes as ComputeHash does, into one buffer it
// reuses: a replay that rehashes the whole log allocates nothing per
// event. It is not safe for concurrent use; give each goroutine its own.
type Hasher struct {
	buf []byte
	h   hash.Hash
	sum [HashSize]byte // Sum's result, kept here so that it is not allocated
}

// Sum returns ComputeHash(prev, e).
func (h *Hasher) Sum(prev []byte, e *Event) [HashSize]byte {
	if h.h == nil {
		h.h = sha256.New()
	}
	h.h.Reset()
	// The fields before the payload are copied once, into the buffer;
	// the payload, most of an event, is hashed where it lies.
	h.buf = append(h.buf[:0], prev...)
	h.buf = appendEnvelope(h.buf, e)
	h.buf = binary.BigEndian.AppendUint32(h.buf, uint32(len(e.Payload)))
	h.h.Write(h.buf)
	h.h.Write(e.Payload)
	h.h.Sum(h.sum[:0])
	return h.sum
}

// appendCanonicalEncoding appends CanonicalEncoding(*e) to dst, as Sum
// hashes it.
func appendCanonicalEncoding(dst []byte, e *Event) []byte {
	return appendBytes(appendEnvelope(dst, e), e.Payload)
}

// appendEnvelope appends the canonical encoding of e's fields before its
// payload.
func appendEnvelope(dst []byte, e *Event) []byte {
	var num [20]byte
	var at [64]byte
	dst = appendString(dst, canonicalTag)
	dst = appendBytes(dst, strconv.AppendInt(num[:0], e.Seq, 10))
	dst = appendString(dst, e.ID)
	dst = appendString(dst, e.CommandID)
	dst = appendString(dst, e.Stream)
	dst = appendBytes(dst, strconv.AppendInt(num[:0], e.StreamVersion, 10))
	dst = appendString(dst, e.Type)
	dst = appendBytes(dst, strconv.AppendInt(num[:0], int64(e.PayloadVersion), 10))
	dst = appendString(dst, e.Actor)
	return appendBytes(dst, appendTime(at[:0], e.RecordedAt))
}

func appendString(dst []byte, s string) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(s)))
	return append(dst, s...)
}

func appendBytes(dst, b []byte) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(b)))
	return append(dst, b...)
}

// appendTime appends FormatTime(t): the digits written out by hand for
// the years 0 to 9999, which time's layout interpreter takes several times
// as long over.
func appendTime(dst []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.AppendFormat(dst, TimeLayout)
	}
	hour, minute, sec := t.Clock()
	var b [len(TimeLayout)]byte // 2006-01-02T15:04:05.000000000Z
	put := func(at, n, width int) {
		for i := at + width - 1; i >= at; i-- {
			b[i] = byte('0' + n%10)
			n /= 10
		}
	}
	put(0, year, 4)
	b[4] = '-'
	put(5, int(month), 2)
	b[7] = '-'
	put(8, day, 2)
	b[10] = 'T'
	put(11, hour, 2)
	b[13] = ':'
	put(14, minute, 2)
	b[16] = ':'
	put(17, sec, 2)
	b[19] = '.'
	put(20, t.Nanosecond(), 9)
	b[29] = 'Z'
	return append(dst, b[:]...)
}
