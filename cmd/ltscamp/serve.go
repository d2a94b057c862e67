package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/web"
)

func newServeCmd(a *app) *cobra.Command {
	var addr string
	cmd := &cobra.Command{
		Use:   "serve [FILE... | FOLDER]",
		Short: "Serve read-only pages of the campaign to the links `share` grants",
		Long: `Serve the campaign's pages to the players' phones and the GM's browser: the
party, each character's sheet, his XP audit and his rolls, and for the GM the
foes, the log with its dice, the timeline and the ships. Each page is reached
only by a link granted with ` + "`ltscamp share`" + `; a player's link shows the
party's public sheets, his own character in full and foes by name and
condition only.

Pages follow the log: a write by any process shows within a second, without
reloading the page (with JavaScript off, the page reloads every 30 s). Each
page names the head of the log it shows, to check with ` + "`ltscamp verify --head`" + `.

serve only reads: it opens the campaign read-only, never takes the write lock
and never migrates the file. It listens on 127.0.0.1:8080 (this machine
only); --addr 0.0.0.0:8080 opens it to the local network, for the table's
Wi-Fi. Behind a reverse proxy with TLS, keep it on 127.0.0.1 (docs/serve.md).
Several campaign files, or a folder of them, are served at once: each link
opens its own campaign. Ctrl-C stops it.`,
		Example: `  ltscamp serve
  ltscamp serve --addr 0.0.0.0:8080
  ltscamp serve kitkat.ltscamp derelict.ltscamp
  ltscamp serve ~/campaigns/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			files, err := serveFiles(a.db, args)
			if err != nil {
				return err
			}
			opts := campaign.Options{Now: a.env.Now, Actor: a.actor, Build: releaseVersion}
			srv, err := web.New(web.Config{
				Files: files,
				Open:  func(p string) (*campaign.Service, error) { return campaign.OpenReadOnly(p, opts) },
				Now:   a.env.Now,
				Logf:  func(format string, v ...any) { fmt.Fprintf(a.env.Stderr, format+"\n", v...) },
			})
			if err != nil {
				return err
			}
			defer srv.Close()
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			err = web.Listen(ctx, addr, srv, func(at net.Addr) {
				for _, f := range srv.Campaigns() {
					fmt.Fprintf(a.env.Stderr, "serving %s\n", campaign.RedactAddress(f))
				}
				fmt.Fprintf(a.env.Stderr, "at %s (read-only; the links come from `ltscamp share`); Ctrl-C stops\n", listenText(at))
			})
			if err != nil {
				return usagef("serve --addr %s: %v", addr, err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&addr, "addr", defaultServeAddr, "the address to listen on: HOST:PORT (0.0.0.0:8080 for the local network)")
	return cmd
}

// serveFiles returns the campaign files serve was given: the files named,
// the campaign files (*.ltscamp) of a folder named, or --db.
func serveFiles(db string, args []string) ([]string, error) {
	if len(args) == 0 {
		return []string{db}, nil
	}
	var files []string
	for _, arg := range args {
		// A file that is not there is refused by its opening, as every
		// command refuses it.
		if fi, err := os.Stat(arg); err != nil || !fi.IsDir() {
			files = append(files, arg)
			continue
		}
		found, err := filepath.Glob(filepath.Join(arg, "*.ltscamp"))
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, usagef("serve %s: the folder holds no campaign file (*.ltscamp)", arg)
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, nil
}

// listenText says where serve listens: its address, or, when it listens on
// every address of the machine, the addresses of its network interfaces
// that a link can name (share --addr).
func listenText(at net.Addr) string {
	tcp, ok := at.(*net.TCPAddr)
	if !ok || !tcp.IP.IsUnspecified() {
		return "http://" + at.String() + "/"
	}
	var lan []string
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
				lan = append(lan, net.JoinHostPort(n.IP.String(), fmt.Sprint(tcp.Port)))
			}
		}
	}
	if len(lan) == 0 {
		return fmt.Sprintf("every address of this machine, port %d", tcp.Port)
	}
	return fmt.Sprintf("every address of this machine, port %d: share --addr %s", tcp.Port, strings.Join(lan, " or "))
}
