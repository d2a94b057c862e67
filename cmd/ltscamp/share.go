package main

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/web"
)

// defaultServeAddr is where `ltscamp serve` listens unless told otherwise,
// and so the address the links of `share` name.
const defaultServeAddr = "127.0.0.1:8080"

func newShareCmd(a *app) *cobra.Command {
	var (
		gm      bool
		expires string
		uses    int
		addr    string
		reason  string
		asJSON  bool
	)
	cmd := &cobra.Command{
		Use:   "share NAME | share --gm",
		Short: "Give a player a link to his sheet on `ltscamp serve` (or the GM one to everything)",
		Long: `Grant a link that ` + "`ltscamp serve`" + ` answers. A player's link shows the party's
public sheets, his own character in full (sheet, XP audit, rolls) and foes only
by name and condition; the GM's link (--gm) shows everything.

The link carries a random token of 256 bits. It is printed once, here: the log
keeps only its SHA-256 (share.granted), so a copy of the campaign file opens
no link. Send it to the player as you would a password. --expires closes it
after a while (30d, 12h, 2w); --uses after that many page loads on one
server; ` + "`share revoke ID`" + ` closes it for good.

The link names the address serve will listen on (--addr, as serve takes it;
127.0.0.1:8080 by default): give the address the players' phones reach, such
as the laptop's on the table's Wi-Fi (serve --addr 0.0.0.0:8080), or the
address of a reverse proxy.`,
		Example: `  ltscamp share Kira
  ltscamp share Kira --expires 30d --addr 192.168.1.20:8080
  ltscamp share --gm
  ltscamp share list
  ltscamp share revoke 01KD3Q`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("share takes one NAME (quote a name with spaces); see `ltscamp share --help`")
			}
			if len(args) == 0 && !gm {
				return usagef("share takes the NAME of a player's character, or --gm for the GM's link; see `ltscamp share --help`")
			}
			name := ""
			if len(args) == 1 {
				if gm {
					return usagef("share takes a NAME or --gm, not both")
				}
				name = args[0]
			}
			d, err := parseExpiry(expires)
			if err != nil {
				return err
			}
			base, err := linkBase(addr)
			if err != nil {
				return err
			}
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.Share(campaign.ShareRequest{Character: name, GM: gm, For: d, Uses: uses, Reason: reason})
				if err != nil {
					return err
				}
				link := base + "/s/" + res.Token + "/"
				if asJSON {
					return a.out.json(struct {
						shareJSON
						Link  string `json:"link"`
						Token string `json:"token"`
					}{newShareJSON(res.Share), link, res.Token})
				}
				// The link is the command's data, on standard output; the
				// report of a write goes to standard error.
				fmt.Fprintln(a.env.Stdout, link)
				a.out.note("link %s for %s granted at seq %d%s; the token is shown only here (the log keeps its hash)",
					res.Share.ID, shareWho(res.Share), res.Event.Seq, shareLimits(res.Share))
				return nil
			})
		},
	}
	cmd.Annotations = map[string]string{ownArgs: "true"}
	f := cmd.Flags()
	f.BoolVar(&gm, "gm", false, "the GM's link, which shows everything")
	f.StringVar(&expires, "expires", "", "close the link after this long: 30d, 12h, 2w (default: until revoked)")
	f.IntVar(&uses, "uses", 0, "close the link after this many page loads on one server (default: no limit)")
	f.StringVar(&addr, "addr", defaultServeAddr, "the address serve listens on, or the public URL before it (https://table.example.org)")
	f.StringVar(&reason, "reason", "", "why the link was granted, kept with it in the log")
	f.BoolVar(&asJSON, "json", false, "print the link, its token and its share as JSON")
	cmd.AddCommand(newShareListCmd(a), newShareRevokeCmd(a))
	return cmd
}

func newShareListCmd(a *app) *cobra.Command {
	var asJSON, all bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the links granted: whose, until when, revoked or not",
		Long: `List the links granted with ` + "`ltscamp share`" + `: each one's ID, whose it is (a
character, or the GM), when it expires, the uses left of a link granted with
--uses (serve counts the pages each opened, in a file beside the campaign)
and when it was granted. Revoked, expired and used-up links are left out
unless --all is given. The tokens are not in the log and cannot be listed: a
lost link is revoked and granted anew.`,
		Example: `  ltscamp share list
  ltscamp share list --all --json`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				list, err := s.Shares()
				if err != nil {
					return err
				}
				// The pages opened are counted by serve beside the file.
				used, err := web.ReadUses(a.db)
				if err != nil {
					return fmt.Errorf("the uses serve counted, in %s: %w", web.UsesPath(a.db), err)
				}
				now := a.env.Now()
				out := []shareJSON{}
				var rows [][]string
				for _, sh := range list {
					left := sh.Uses - used[sh.ID]
					open := sh.Open(now) && (sh.Uses == 0 || left > 0)
					if !all && !open {
						continue
					}
					j := newShareJSON(sh)
					j.Open = open
					if sh.Uses > 0 {
						n := max(left, 0)
						j.UsesLeft = &n
					}
					out = append(out, j)
					state := "open"
					switch {
					case sh.Revoked:
						state = fmt.Sprintf("revoked at seq %d", sh.RevokedSeq)
					case !sh.Open(now):
						state = "expired"
					case !open:
						state = "used up"
					}
					rows = append(rows, []string{sh.ID, shareWho(sh), expiryText(sh), usesText(sh, used[sh.ID]), fmt.Sprint(sh.Seq), state})
				}
				if asJSON {
					return a.out.json(out)
				}
				if len(rows) == 0 {
					a.out.note("no open links: `ltscamp share NAME` grants one")
					return nil
				}
				a.out.table([]string{"ID", "FOR", "EXPIRES", "USES", "SEQ", "STATE"}, rows)
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the links as JSON: id, scope, character, expires, uses, uses_left, open")
	cmd.Flags().BoolVar(&all, "all", false, "list revoked and expired links too")
	return cmd
}

func newShareRevokeCmd(a *app) *cobra.Command {
	var reason string
	cmd := &cobra.Command{
		Use:   "revoke ID",
		Short: "Close a link for good",
		Long: `Close a link granted with ` + "`ltscamp share`" + ` (share.revoked): a server stops
answering it within a second, pages already open included. ID is the link's
ID from ` + "`share list`" + `, or its first letters when they name one link. An undo
of the revoke opens the link again.`,
		Example: `  ltscamp share revoke 01KD3QX6M2W8
  ltscamp share revoke 01KD3Q --reason "phone lost"`,
		Args: exactArgs(1, "the link's ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				sh, e, err := s.RevokeShare(args[0], reason)
				if err != nil {
					return err
				}
				a.out.note("link %s for %s revoked at seq %d", sh.ID, shareWho(sh), e.Seq)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "", "why, kept with the revoke in the log")
	return cmd
}

// shareJSON is a link in `share list --json`.
type shareJSON struct {
	ID          string     `json:"id"`
	Scope       string     `json:"scope"`
	Character   string     `json:"character"`
	CharacterID string     `json:"character_id,omitempty"`
	Expires     *time.Time `json:"expires"`
	Uses        *int       `json:"uses"`
	UsesLeft    *int       `json:"uses_left"`
	Seq         int64      `json:"seq"`
	GrantedAt   time.Time  `json:"granted_at"`
	Actor       string     `json:"actor"`
	Revoked     bool       `json:"revoked"`
	Open        bool       `json:"open"`
}

func newShareJSON(sh projections.Share) shareJSON {
	j := shareJSON{ID: sh.ID, Scope: sh.Scope, Character: sh.Character, CharacterID: sh.CharacterID,
		Seq: sh.Seq, GrantedAt: sh.GrantedAt, Actor: sh.Actor, Revoked: sh.Revoked, Open: !sh.Revoked}
	if sh.Scope != "player" {
		j.Character = "gm"
	}
	if !sh.Expires.IsZero() {
		t := sh.Expires
		j.Expires = &t
	}
	if sh.Uses > 0 {
		n := sh.Uses
		j.Uses = &n
	}
	return j
}

// shareWho names whose a link is.
func shareWho(sh projections.Share) string {
	if sh.Scope == "player" {
		return sh.Character
	}
	return "the GM"
}

func shareLimits(sh projections.Share) string {
	s := ""
	if !sh.Expires.IsZero() {
		s += ", open until " + sh.Expires.UTC().Format("2006-01-02 15:04 UTC")
	}
	if sh.Uses > 0 {
		s += fmt.Sprintf(", for %d page loads", sh.Uses)
	}
	return s
}

func expiryText(sh projections.Share) string {
	if sh.Expires.IsZero() {
		return "never"
	}
	return sh.Expires.UTC().Format("2006-01-02 15:04")
}

func usesText(sh projections.Share, used int) string {
	if sh.Uses == 0 {
		return "no limit"
	}
	return fmt.Sprintf("%d of %d left", max(sh.Uses-used, 0), sh.Uses)
}

// maxExpiry is the longest a link may stay open: ten years.
const maxExpiry = 10 * 366 * 24 * time.Hour

// parseExpiry reads --expires: a number of days (30d), weeks (2w), hours
// (12h) or minutes (90m), or a Go duration (1h30m); "" for never.
func parseExpiry(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	bad := usagef("--expires %q: give a time to come of at most 10 years, such as 30d, 2w, 12h or 90m", s)
	d, err := time.ParseDuration(s)
	if unit := map[byte]time.Duration{'d': 24 * time.Hour, 'w': 7 * 24 * time.Hour}[s[len(s)-1]]; unit > 0 {
		n, nerr := strconv.Atoi(s[:len(s)-1])
		d, err = time.Duration(n)*unit, nerr
		if n > 3660 { // no overflow below: 3,660 weeks is far less
			err = bad
		}
	}
	if err != nil || d <= 0 || d > maxExpiry {
		return 0, bad
	}
	return d, nil
}

// linkBase is the start of a link: http://ADDR, or the URL given (a
// reverse proxy's), without its trailing slash.
func linkBase(addr string) (string, error) {
	addr = strings.TrimSpace(addr)
	bad := usagef("--addr %q: give HOST:PORT (127.0.0.1:8080) or a URL (https://table.example.org)", addr)
	if strings.HasPrefix(addr, "http://") || strings.HasPrefix(addr, "https://") {
		u, err := url.Parse(addr)
		if err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			return "", bad
		}
		return strings.TrimRight(addr, "/"), nil
	}
	host, port, err := net.SplitHostPort(addr)
	if n, perr := strconv.Atoi(port); err != nil || perr != nil || n < 1 || n > 65535 || strings.ContainsAny(host, "/?#@") {
		return "", bad
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		return "", usagef("--addr %q: a link needs the address the players reach, not one serve listens on everywhere: give this machine's LAN address (192.168.1.20:%s)", addr, port)
	}
	return "http://" + net.JoinHostPort(host, port), nil
}
