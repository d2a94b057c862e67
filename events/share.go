package events

// Shares are the links `ltscamp serve` answers: a player's link to his
// character, or the GM's to everything. A link carries a random token;
// the log holds only its SHA-256, so a copy of the campaign file (a
// backup, an export of the log) opens no link. Granting and revoking are
// commands like any other: audited, undone, verified.
const (
	TypeShareGranted = "share.granted"
	TypeShareRevoked = "share.revoked"

	// SharesStream holds every share.granted and share.revoked.
	SharesStream = "shares"

	// The scopes of a link.
	ShareScopeGM     = "gm"
	ShareScopePlayer = "player"
)

// ShareGranted opens a link. A player's link (Scope "player") names his
// character; the GM's (Scope "gm") names none.
type ShareGranted struct {
	Stamp
	ShareID     string `json:"share_id"`
	Scope       string `json:"scope"`
	CharacterID string `json:"character_id,omitempty"`
	Character   string `json:"character,omitempty"`
	// TokenHash is the lowercase hex SHA-256 of the link's token.
	TokenHash string `json:"token_hash"`
	// Expires is when the link stops opening (TimeLayout, UTC); empty
	// for never.
	Expires string `json:"expires,omitempty"`
	// Uses is how many times a server opens the link's pages, 0 for no
	// limit.
	Uses int `json:"uses,omitempty"`
	// Reason says why it was granted, when the GM said.
	Reason string `json:"reason,omitempty"`
}

// ShareRevoked closes a link for good.
type ShareRevoked struct {
	Stamp
	ShareID string `json:"share_id"`
	Reason  string `json:"reason,omitempty"`
}

// EventType implements Payload.
func (ShareGranted) EventType() string { return TypeShareGranted }

// EventType implements Payload.
func (ShareRevoked) EventType() string { return TypeShareRevoked }

// PayloadVersion implements Payload; ShareGranted is at version 1.
func (ShareGranted) PayloadVersion() int { return 1 }

// PayloadVersion implements Payload; ShareRevoked is at version 1.
func (ShareRevoked) PayloadVersion() int { return 1 }

func shareDecoders() map[string]func() Payload {
	return map[string]func() Payload{
		TypeShareGranted: func() Payload { return &ShareGranted{} },
		TypeShareRevoked: func() Payload { return &ShareRevoked{} },
	}
}
