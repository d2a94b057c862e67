// Command playstart times how long a full-screen program takes to draw its
// first frame, as a person at the terminal sees it: it starts the command
// on a new pseudo-terminal of the size given, reads what the program
// writes there, and prints the milliseconds from just before the process
// is started to the first read that holds the marker (a word the whole
// frame shows, such as the last name of its table). Then it types Ctrl-C
// and waits for the program to leave. bench/play.sh times `ltscamp play`
// with it (issue 23: the start takes at most 200 ms at 1,000,000 events).
//
//	go run ./bench/playstart [-cols 120] [-rows 40] -until MARKER COMMAND [ARG...]
//
// Linux only (it opens /dev/ptmx itself, with no library).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
	"unsafe"
)

func main() {
	cols := flag.Int("cols", 120, "the terminal's width")
	rows := flag.Int("rows", 40, "the terminal's height")
	until := flag.String("until", "", "the word the first frame shows (required)")
	limit := flag.Duration("timeout", 30*time.Second, "give up after this long")
	flag.Parse()
	if *until == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: playstart [-cols N] [-rows N] -until MARKER COMMAND [ARG...]")
		os.Exit(2)
	}
	ms, err := firstFrame(flag.Args(), *until, *cols, *rows, *limit)
	if err != nil {
		fmt.Fprintln(os.Stderr, "playstart:", err)
		os.Exit(1)
	}
	fmt.Printf("%.1f\n", ms)
}

// firstFrame runs args on a new terminal and returns the milliseconds
// until its output holds marker.
func firstFrame(args []string, marker string, cols, rows int, limit time.Duration) (float64, error) {
	master, slave, err := openPTY(cols, rows)
	if err != nil {
		return 0, err
	}
	defer master.Close()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		slave.Close()
		return 0, err
	}
	slave.Close()
	found := make(chan time.Duration, 1)
	failed := make(chan error, 1)
	go func() {
		var seen []byte
		buf := make([]byte, 64*1024)
		reported := false
		for {
			n, err := master.Read(buf)
			if n > 0 && !reported {
				seen = append(seen, buf[:n]...)
				if bytes.Contains(seen, []byte(marker)) {
					found <- time.Since(start)
					reported = true
				}
			}
			if err != nil { // the program left, and the terminal closed
				if !reported {
					failed <- fmt.Errorf("the program left before showing %q; it wrote:\n%q", marker, tail(seen, 400))
				}
				return
			}
		}
	}()
	var took time.Duration
	select {
	case took = <-found:
	case err := <-failed:
		cmd.Wait()
		return 0, err
	case <-time.After(limit):
		cmd.Process.Kill()
		cmd.Wait()
		return 0, fmt.Errorf("no %q within %s", marker, limit)
	}
	master.Write([]byte{3}) // Ctrl-C: leave
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		<-done
		return 0, errors.New("the program did not leave on Ctrl-C within 5 s")
	}
	return float64(took.Microseconds()) / 1000, nil
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// openPTY opens a new pseudo-terminal pair of the size given.
func openPTY(cols, rows int) (master, slave *os.File, err error) {
	master, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	fail := func(err error) (*os.File, *os.File, error) {
		master.Close()
		return nil, nil, err
	}
	var unlock int32
	if err := ioctl(master.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); err != nil {
		return fail(fmt.Errorf("unlocking the terminal: %w", err))
	}
	var n uint32
	if err := ioctl(master.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); err != nil {
		return fail(fmt.Errorf("naming the terminal: %w", err))
	}
	ws := struct{ rows, cols, x, y uint16 }{uint16(rows), uint16(cols), 0, 0}
	if err := ioctl(master.Fd(), syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(&ws))); err != nil {
		return fail(fmt.Errorf("sizing the terminal: %w", err))
	}
	slave, err = os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return fail(err)
	}
	return master, slave, nil
}

func ioctl(fd, req, arg uintptr) error {
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, req, arg); e != 0 {
		return e
	}
	return nil
}
