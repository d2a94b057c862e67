package projections

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// revertBase is the set of commands out of effect as a reverts snapshot
// stores it: records sorted by command ID, read in place by binary search,
// so that a command starting from a snapshot of thousands of undone
// commands decodes nothing and looks up only the commands it folds.
//
// The encoding: "RVB1", the commands stream's version (8 bytes), the count
// n (4 bytes), n+1 offsets into the records (4 bytes each), then the
// records: the command ID, the undo's seq (8 bytes) and the command's place
// in the undo's list (4 bytes). Integers are little-endian.
type revertBase struct {
	offsets []byte // n+1 little-endian uint32
	records []byte
	n       int
}

const revertBaseMagic = "RVB1"

// recordTail is the fixed part of a record after the command ID: the
// undo's seq (8 bytes) and the position in its list (4).
const recordTail = 12

var errBadBase = errors.New("reverts snapshot: malformed")

// encodeBase encodes refs (and the stream version) as a revertBase.
func encodeBase(refs map[string]revertRef, version int64) []byte {
	ids := slices.Sorted(maps.Keys(refs))
	out := binary.LittleEndian.AppendUint64([]byte(revertBaseMagic), uint64(version))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(ids)))
	off := 0
	for _, id := range ids {
		out = binary.LittleEndian.AppendUint32(out, uint32(off))
		off += len(id) + recordTail
	}
	out = binary.LittleEndian.AppendUint32(out, uint32(off))
	for _, id := range ids {
		ref := refs[id]
		out = append(out, id...)
		out = binary.LittleEndian.AppendUint64(out, uint64(ref.seq))
		out = binary.LittleEndian.AppendUint32(out, uint32(ref.pos))
	}
	return out
}

// decodeBase reads what encodeBase wrote, in place: b must not change.
func decodeBase(b []byte) (revertBase, int64, error) {
	head := len(revertBaseMagic) + 8 + 4
	// The header, then at least the offset of the end.
	if len(b) < head+4 || string(b[:len(revertBaseMagic)]) != revertBaseMagic {
		return revertBase{}, 0, errBadBase
	}
	version := int64(binary.LittleEndian.Uint64(b[len(revertBaseMagic):]))
	// Below 2^32: no overflow in an int of the 64-bit builds.
	n := int(binary.LittleEndian.Uint32(b[len(revertBaseMagic)+8:]))
	if len(b) < head+4*(n+1) {
		return revertBase{}, 0, errBadBase
	}
	base := revertBase{offsets: b[head : head+4*(n+1)], records: b[head+4*(n+1):], n: n}
	prev := 0
	for i := 0; i <= n; i++ {
		// The records begin at 0, each holds a command ID before its
		// fixed tail, and the last ends the encoding.
		off := base.offset(i)
		if i == 0 && off != 0 || i > 0 && off-prev <= recordTail || off > len(base.records) {
			return revertBase{}, 0, fmt.Errorf("%w: record %d", errBadBase, i)
		}
		prev = off
	}
	if prev != len(base.records) {
		return revertBase{}, 0, fmt.Errorf("%w: %d bytes after the records", errBadBase, len(base.records)-prev)
	}
	return base, version, nil
}

func (b *revertBase) offset(i int) int {
	return int(binary.LittleEndian.Uint32(b.offsets[4*i:]))
}

// record returns the i-th record's command ID and reference.
func (b *revertBase) record(i int) (string, revertRef) {
	rec := b.records[b.offset(i):b.offset(i+1)]
	idLen := len(rec) - recordTail
	return string(rec[:idLen]), revertRef{
		seq: int64(binary.LittleEndian.Uint64(rec[idLen:])),
		pos: int(binary.LittleEndian.Uint32(rec[idLen+8:])),
	}
}

// find looks a command up.
func (b *revertBase) find(id string) (revertRef, bool) {
	lo, hi := 0, b.n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		rec := b.records[b.offset(mid):b.offset(mid+1)]
		c := strings.Compare(string(rec[:len(rec)-recordTail]), id)
		if c == 0 {
			_, ref := b.record(mid)
			return ref, true
		}
		if c < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return revertRef{}, false
}
