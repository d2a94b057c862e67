package pgstore

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/ltscamp/ltscamp/events"
)

// Classify is the one place where the server's and the driver's errors
// become the store errors of package events: an error that tells of the
// server, the connection or the disk comes back wrapped so that
// errors.Is matches events.ErrUnreachable (no server, a connection lost),
// events.ErrDenied (authentication, privileges), events.ErrBusy (a lock
// or statement timeout, too many connections), events.ErrDiskFull,
// events.ErrReadOnly (a read-only transaction or a hot standby) or
// events.ErrDamaged. Any other error, and nil, comes back as it is. The
// store's methods return their errors classified; it is meant for the
// store's own errors, and reads a broken pipe or an end of file as the
// connection lost.
func Classify(err error) error {
	if err == nil {
		return nil
	}
	sentinel := sentinelOf(err)
	if sentinel == nil || errors.Is(err, sentinel) {
		return err
	}
	return &events.Classified{Sentinel: sentinel, Err: err}
}

// sentinelOf returns the events sentinel err tells of, or nil.
func sentinelOf(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "53100": // disk_full
			return events.ErrDiskFull
		case pe.Code == "25006": // read_only_sql_transaction: a standby, or a read-only transaction
			return events.ErrReadOnly
		case pe.Code == "55P03", pe.Code == "57014", pe.Code == "53300", pe.Code == "40P01":
			// lock_not_available (lock_timeout), query_canceled
			// (statement_timeout), too_many_connections,
			// deadlock_detected
			return events.ErrBusy
		case pe.Code == "28P01", pe.Code == "28000", pe.Code == "42501":
			// invalid_password, invalid_authorization_specification,
			// insufficient_privilege
			return events.ErrDenied
		case pe.Code == "XX001", pe.Code == "XX002": // data_corrupted, index_corrupted
			return events.ErrDamaged
		case pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03", len(pe.Code) == 5 && pe.Code[:2] == "08":
			// admin_shutdown, crash_shutdown, cannot_connect_now,
			// connection exceptions
			return events.ErrUnreachable
		case pe.Code == "3D000": // invalid_catalog_name: no such database
			return events.ErrNotCampaign
		}
		return nil
	}
	if isTLS(err) {
		return ErrTLS
	}
	if connectionLost(err) {
		return events.ErrUnreachable
	}
	return nil
}

// ErrTLS means the TLS connection to the server failed: its certificate
// is not trusted, or does not name the host, or the handshake failed. It
// is the address's settings (sslmode, sslrootcert) or the server's
// certificate to look at, not the network.
var ErrTLS = errors.New("the TLS connection to the database server failed")

// isTLS reports whether err is a failed TLS handshake or certificate
// check.
func isTLS(err error) bool {
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	var alert tls.AlertError
	var rec tls.RecordHeaderError
	return errors.As(err, &unknown) || errors.As(err, &host) || errors.As(err, &invalid) ||
		errors.As(err, &verify) || errors.As(err, &alert) || errors.As(err, &rec) ||
		strings.Contains(err.Error(), "server refused TLS connection")
}

// connectionLost reports whether err is the connection failing (never
// made, refused, reset, closed), as opposed to the server answering with
// an error.
func connectionLost(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		c := pe.Code
		return c == "57P01" || c == "57P02" || c == "57P03" || len(c) == 5 && c[:2] == "08"
	}
	// *net.OpError, not net.Error: a file's *fs.PathError satisfies
	// net.Error too.
	var ce *pgconn.ConnectError
	var ne *net.OpError
	return errors.As(err, &ce) || errors.As(err, &ne) || pgconn.SafeToRetry(err) || pgconn.Timeout(err) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, context.DeadlineExceeded) || isClosedConn(err)
}

// isClosedConn reports pgx's error for a connection closed under it.
func isClosedConn(err error) bool {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if e.Error() == "conn closed" {
			return true
		}
	}
	return false
}
