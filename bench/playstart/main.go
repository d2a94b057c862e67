// Command playstart times how long a full-screen program takes to draw its
// first frame, as a person at the terminal sees it: it starts the command
// on a new pseudo-terminal of the size given, reads what the program
// writes there, and prints the milliseconds from just before the process
// is started to the first read that holds the marker (a word the whole
// frame shows, such as the last word of its bottom line). Then it types
// Ctrl-C and waits for the program to leave. bench/play.sh times `ltscamp
// play` with it (issue 23: the start takes at most 200 ms at 1,000,000
// events).
//
// With -type FILE, it then types FILE's lines instead, each followed by
// Enter, as fast as the program reads them; the last line must end the
// program ("quit"). It prints the milliseconds from the first key to the
// program's exit, and the program's peak resident memory (its VmHWM, from
// the kernel's rusage) in kB.
//
//	go run ./bench/playstart [-cols 120] [-rows 40] -until MARKER [-type FILE] COMMAND [ARG...]
//
// Linux only (it opens /dev/ptmx itself, with no library).
package main

import (
	"bytes"
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
	typed := flag.String("type", "", "a file of lines to type after the first frame, the last one ending the program")
	limit := flag.Duration("timeout", 5*time.Minute, "give up after this long")
	flag.Parse()
	if *until == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: playstart [-cols N] [-rows N] -until MARKER [-type FILE] COMMAND [ARG...]")
		os.Exit(2)
	}
	var keys []byte
	if *typed != "" {
		b, err := os.ReadFile(*typed)
		if err != nil {
			fmt.Fprintln(os.Stderr, "playstart:", err)
			os.Exit(1)
		}
		keys = bytes.ReplaceAll(bytes.TrimRight(b, "\n"), []byte("\n"), []byte("\r"))
		keys = append(keys, '\r')
	}
	r, err := firstFrame(flag.Args(), *until, *cols, *rows, *limit, keys)
	if err != nil {
		fmt.Fprintln(os.Stderr, "playstart:", err)
		os.Exit(1)
	}
	fmt.Printf("first-frame-ms %.1f\n", r.first)
	if keys != nil {
		fmt.Printf("typed-ms %.1f\npeak-rss-kb %d\n", r.typed, r.peakKB)
	}
}

// result is what one run measured, in milliseconds and kB.
type result struct {
	first, typed float64
	peakKB       int64
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// firstFrame runs args on a new terminal and measures the time until its
// output holds marker; then it types keys (Ctrl-C when there are none)
// and waits for the program to leave.
func firstFrame(args []string, marker string, cols, rows int, limit time.Duration, keys []byte) (result, error) {
	var r result
	master, slave, err := openPTY(cols, rows)
	if err != nil {
		return r, err
	}
	defer master.Close()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		slave.Close()
		return r, err
	}
	slave.Close()
	found := make(chan time.Duration, 1)
	failed := make(chan error, 1)
	go func() {
		var seen []byte
		buf := make([]byte, 64*1024)
		reported := false
		for {
			// The program is read to its end, so that it never blocks
			// on a full terminal.
			n, err := master.Read(buf)
			if n > 0 && !reported {
				seen = append(seen, buf[:n]...)
				if bytes.Contains(seen, []byte(marker)) {
					found <- time.Since(start)
					reported = true
					seen = nil
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
	select {
	case took := <-found:
		r.first = millis(took)
	case err := <-failed:
		cmd.Wait()
		return r, err
	case <-time.After(limit):
		cmd.Process.Kill()
		cmd.Wait()
		return r, fmt.Errorf("no %q within %s", marker, limit)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	wait, leave := 5*time.Second, "on Ctrl-C"
	typing := time.Now()
	if keys == nil {
		master.Write([]byte{3}) // Ctrl-C: leave
	} else {
		wait, leave = limit, "after the last line typed"
		go master.Write(keys) // it blocks while the program has not read them
	}
	select {
	case <-done:
	case <-time.After(wait):
		cmd.Process.Kill()
		<-done
		return r, fmt.Errorf("the program did not leave %s within %s", leave, wait)
	}
	r.typed = millis(time.Since(typing))
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.peakKB = ru.Maxrss
	}
	return r, nil
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
