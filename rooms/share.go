package rooms

import (
	"context"
	"fmt"
	"slices"
)

// Shares bounds what one player or one address may hold of a hub, as OpenSSH's per-user limits
// do, so that no one can take every room. A player is counted by its key (Player.ID); a guest,
// whose ID is new with every session, by its address (Player.Source). Zero or negative fields
// bound nothing. The messages of refusals name the server's flag of each limit.
type Shares struct {
	// WaitingPerKey bounds the rooms waiting for players (phase Waiting) that one key, or one
	// guest address, has created (--max-waiting-rooms).
	WaitingPerKey int
	// WaitingPerAddr bounds the rooms waiting for players created from one address, keys and
	// guests together (--max-waiting-rooms-per-addr).
	WaitingPerAddr int
	// Unfinished bounds the rooms one key or guest address has created whose match is waiting or
	// being played (--max-unfinished).
	Unfinished int
	// SpectatorsPerRoom bounds the spectators of one room (--max-spectators).
	SpectatorsPerRoom int
}

// The names of the shares' limits, as Config.Refused is told them.
const (
	LimitWaitingPerKey  = "waiting_per_key"
	LimitWaitingPerAddr = "waiting_per_addr"
	LimitUnfinished     = "unfinished"
	LimitSpectators     = "spectators_per_room"
	LimitRooms          = "rooms" // Config.MaxRooms
)

// shareError is a refusal with its figures and its limit's flag, for the player; it matches its
// sentinel (errors.Is), whose text is the same refusal in general words.
type shareError struct {
	sentinel error
	text     string
}

func (e shareError) Error() string { return e.text }
func (e shareError) Unwrap() error { return e.sentinel }

// ownerOf is whom a room created by p counts against: p's key, or a guest's address ("" when p
// is a guest with no address: its own ID, new with each session, would bound nothing).
func ownerOf(p Player) string {
	if !p.Guest {
		return p.ID
	}
	if p.Source == "" {
		return p.ID
	}
	return "guest@" + p.Source
}

// held is what an owner and an address hold of the hub's rooms, and which of their rooms
// could make way for a new one.
type held struct {
	waiting, addrWaiting, unfinished int
	codes                            map[string]bool // the codes of the owner's unfinished rooms
	// spare are the owner's Waiting rooms, oldest first; addrSpare the address's.
	spare, addrSpare []*Room
}

// holdings counts what owner and source hold. Hub's lock held.
func (h *Hub) holdings(owner, source string) held {
	var c held
	for _, r := range h.rooms {
		s := r.summary.Load()
		if s == nil || r.owner == "" {
			continue
		}
		waiting := s.Phase == Waiting
		if r.owner == owner {
			if waiting {
				c.waiting++
				c.spare = append(c.spare, r)
			}
			if waiting || s.Phase == Playing {
				c.unfinished++
				if c.codes == nil {
					c.codes = map[string]bool{}
				}
				c.codes[r.code] = true
			}
		}
		if source != "" && r.source == source && waiting {
			c.addrWaiting++
			c.addrSpare = append(c.addrSpare, r)
		}
	}
	byAge := func(a, b *Room) int { return a.created.Compare(b.created) }
	slices.SortFunc(c.spare, byAge)
	slices.SortFunc(c.addrSpare, byAge)
	return c
}

// checkShares returns the refusal of a room for by, or nil; when by (or its address) is at its
// share of waiting rooms, reclaim lists the rooms that may make way for the new one: those that
// are still empty (expire) are closed, and Create asks again. Hub's lock held.
func (h *Hub) checkShares(by Player) (reclaim []*Room, err error) {
	sh := h.cfg.Shares
	owner := ownerOf(by)
	c := h.holdings(owner, by.Source)
	who := "you already have"
	if owner != by.ID { // a guest, counted with the other guests of its address
		who = "the guests of your address already have"
	}
	if sh.Unfinished > 0 && h.cfg.Asleep != nil && !by.Guest {
		for _, code := range h.cfg.Asleep(by.ID) { // its correspondence matches, asleep or not
			if !c.codes[code] {
				c.unfinished++
			}
		}
	}
	if sh.Unfinished > 0 && c.unfinished >= sh.Unfinished {
		h.cfg.Refused(LimitUnfinished)
		return nil, shareError{ErrUnfinishedShare, fmt.Sprintf(
			"%s %d unfinished matches (limit --max-unfinished); finish one first", who, c.unfinished)}
	}
	if sh.WaitingPerKey > 0 && c.waiting >= sh.WaitingPerKey {
		return c.spare, shareError{ErrRoomShare, fmt.Sprintf(
			"%s %d rooms waiting for players (limit --max-waiting-rooms); start one or leave one first", who, c.waiting)}
	}
	if sh.WaitingPerAddr > 0 && by.Source != "" && c.addrWaiting >= sh.WaitingPerAddr {
		return c.addrSpare, shareError{ErrAddrRoomShare, fmt.Sprintf(
			"your address already has %d rooms waiting for players (limit --max-waiting-rooms-per-addr); start one or leave one first", c.addrWaiting)}
	}
	return nil, nil
}

// crowded returns the Waiting rooms of the owner that holds the most of them (at least two),
// oldest first: when the hub is full, empty rooms of the biggest holder expire first. Hub's lock
// held.
func (h *Hub) crowded() []*Room {
	byOwner := map[string][]*Room{}
	var most string
	for _, r := range h.rooms {
		if s := r.summary.Load(); r.owner == "" || s == nil || s.Phase != Waiting {
			continue
		}
		byOwner[r.owner] = append(byOwner[r.owner], r)
		if n := len(byOwner[r.owner]); n > len(byOwner[most]) || n == len(byOwner[most]) && r.owner < most {
			most = r.owner
		}
	}
	rs := byOwner[most]
	if len(rs) < 2 {
		return nil
	}
	slices.SortFunc(rs, func(a, b *Room) int { return a.created.Compare(b.created) })
	return rs
}

// expireOne closes the first of rs that is still Waiting with nobody connected, as an empty room
// expires, to make way for a new room, and reports whether it closed one. Not under the hub's
// lock.
func (h *Hub) expireOne(rs []*Room, why string) bool {
	for _, r := range rs {
		closed := false
		_ = r.call(context.Background(), func() error {
			if r.stopped || r.phase != Waiting || len(r.subs) > 0 {
				return nil
			}
			r.cfg.Logf("rooms: room %s expired: %s", r.code, why)
			r.stop("the room expired")
			closed = true
			return nil
		})
		if closed {
			<-r.done
			return true
		}
	}
	return false
}
