package slacktest

import (
	"strings"
	"time"
)

// User is a workspace member as users.info reports it.
type User struct {
	ID       string
	Name     string // handle; defaults to the lower-cased ID
	RealName string
	TZ       string // IANA zone, e.g. "Europe/Berlin"; "" means DefaultTZ
	TZOffset *int   // seconds east of UTC; nil computes it from TZ at the server's clock
	IsBot    bool
	Deleted  bool
}

// Channel is a conversation and the bot's standing in it. The zero value is a
// public channel the bot is not a member of.
type Channel struct {
	ID       string
	Name     string // defaults to the lower-cased ID
	Private  bool
	Archived bool
	Member   bool // the bot is in the channel
	Deleted  bool // the channel is gone: channel_not_found everywhere
	IM       bool // a direct-message channel with User
	User     string
}

// SetUser adds or replaces a user.
func (s *Server) SetUser(u User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u.Name == "" {
		u.Name = strings.ToLower(u.ID)
	}
	if u.TZ == "" {
		u.TZ = DefaultTZ
	}
	s.users[u.ID] = &u
	s.notifyLocked()
}

// User returns a registered user.
func (s *Server) User(id string) (User, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[id]
	if !ok {
		return User{}, false
	}
	return *u, true
}

// SetChannel adds or replaces a channel's state: SetChannel("C1",
// Channel{Private: true}) is a private channel the bot is not in (posting
// gives not_in_channel); Channel{Archived: true} gives is_archived.
func (s *Server) SetChannel(id string, ch Channel) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch.ID = id
	if ch.Name == "" {
		ch.Name = strings.ToLower(id)
	}
	s.channels[id] = &ch
	if ch.IM && ch.User != "" {
		s.dms[ch.User] = id
	}
	s.notifyLocked()
}

// Channel returns a channel's current state.
func (s *Server) Channel(id string) (Channel, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, ok := s.channels[id]
	if !ok {
		return Channel{}, false
	}
	return *ch, true
}

// DMChannel returns the IM channel between the bot and user, creating it.
func (s *Server) DMChannel(user string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dmLocked(user)
}

// ensureUserLocked registers an unknown user with defaults.
func (s *Server) ensureUserLocked(id string) *User {
	if u, ok := s.users[id]; ok {
		return u
	}
	u := &User{ID: id, Name: strings.ToLower(id), RealName: "User " + id, TZ: DefaultTZ}
	s.users[id] = u
	return u
}

// ensureChannelLocked registers an unknown channel the driver talks in as a
// public channel with the bot in it (IDs starting with D become IMs).
func (s *Server) ensureChannelLocked(id string) *Channel {
	if ch, ok := s.channels[id]; ok {
		return ch
	}
	ch := &Channel{ID: id, Name: strings.ToLower(id), Member: true, IM: strings.HasPrefix(id, "D")}
	s.channels[id] = ch
	return ch
}

// dmLocked returns the IM channel with user, creating it.
func (s *Server) dmLocked(user string) string {
	if id, ok := s.dms[user]; ok {
		return id
	}
	id := s.idLocked("D")
	s.channels[id] = &Channel{ID: id, IM: true, User: user, Member: true}
	s.dms[user] = id
	return id
}

func (c *Channel) wire(now time.Time) map[string]any {
	m := map[string]any{
		"id": c.ID, "created": now.Unix() - 86400, "is_archived": c.Archived,
		"is_im": c.IM, "is_mpim": false, "is_org_shared": false, "is_ext_shared": false,
		"is_shared": false, "context_team_id": nil,
	}
	if c.IM {
		m["user"] = c.User
		m["is_open"] = true
		return m
	}
	m["name"] = c.Name
	m["name_normalized"] = c.Name
	m["is_channel"] = !c.Private
	m["is_group"] = c.Private
	m["is_private"] = c.Private
	m["is_member"] = c.Member
	m["is_general"] = false
	return m
}

func (u *User) wire(teamID string, now time.Time) map[string]any {
	tz := u.TZ
	if tz == "" {
		tz = DefaultTZ
	}
	label, offset := tz, 0
	if loc, err := time.LoadLocation(tz); err == nil {
		label, offset = now.In(loc).Zone()
	}
	if u.TZOffset != nil {
		offset = *u.TZOffset
	}
	return map[string]any{
		"id": u.ID, "team_id": teamID, "name": u.Name, "deleted": u.Deleted,
		"real_name": u.RealName, "tz": tz, "tz_label": label, "tz_offset": offset,
		"is_bot": u.IsBot, "is_app_user": false, "is_admin": false, "updated": now.Unix(),
		"profile": map[string]any{
			"real_name": u.RealName, "display_name": u.Name, "team": teamID,
		},
	}
}
