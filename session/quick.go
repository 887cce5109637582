package session

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/arcade/arcade/rating"
	"github.com/arcade/arcade/rooms"
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/session/draw"
)

// DefaultQuickWait is Config.QuickWait's default: how long a player looks for an opponent before
// the quick match offers a bot (the player may keep waiting).
const DefaultQuickWait = 30 * time.Second

// quickScreen is the wait for a quick match (ModeQuick): the time waited, and after wait the offer
// of a bot. The room comes when the hub pairs the player (rooms.Ticket.Found).
type quickScreen struct {
	ticket *rooms.Ticket
	game   rules.Game
	wait   time.Duration
	bot    key.Binding
	stop   key.Binding
}

// Messages of the quick match.
type (
	// quickFoundMsg: the hub paired the player in the room of code ("": the wait was cancelled).
	quickFoundMsg struct {
		ticket *rooms.Ticket
		code   string
	}
	// quickTickMsg redraws the time waited.
	quickTickMsg struct{ ticket *rooms.Ticket }
)

// seek puts the player in the quick-match queue of game, at their rating in it.
func (m *Model) seek(gameID string) tea.Cmd {
	g, ok := rules.FindGame(m.cfg.Hub.Games(), gameID)
	if !ok {
		m.lobby.fail(fmt.Sprintf("No game %q; try one of %s.", gameID, rules.GameIDs(m.cfg.Hub.Games())))
		return nil
	}
	t, err := m.cfg.Hub.Seek(rooms.Seek{Game: g.ID, Player: m.cfg.Player, Rating: m.rating(g.ID)})
	if err != nil {
		m.lobby.fail(sentence(err.Error()))
		return nil
	}
	m.conn.setTicket(t)
	m.quick = &quickScreen{ticket: t, game: g, wait: cmp.Or(m.cfg.QuickWait, DefaultQuickWait),
		bot:  key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "play a bot now")),
		stop: key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "stop looking")),
	}
	return tea.Batch(waitQuick(t), quickTick(t))
}

// rating is the player's rating in game, or the starting rating when it has none (guests too).
func (m *Model) rating(game string) float64 {
	if m.cfg.Records == nil || m.cfg.Player.Guest {
		return rating.Default.R
	}
	prof, err := m.cfg.Records.Profile(m.cfg.Player.ID, 0)
	if err != nil {
		return rating.Default.R
	}
	for _, s := range prof.Standings {
		if s.Game == game {
			return s.Rating.R
		}
	}
	return rating.Default.R
}

// waitQuick waits, off the UI goroutine, for t to be paired or cancelled.
func waitQuick(t *rooms.Ticket) tea.Cmd {
	return func() tea.Msg {
		select {
		case code := <-t.Found():
			return quickFoundMsg{ticket: t, code: code}
		case <-t.Done():
			return quickFoundMsg{ticket: t}
		}
	}
}

// quickTick redraws the wait a second later.
func quickTick(t *rooms.Ticket) tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return quickTickMsg{t} })
}

// updateQuick handles a message while the player waits for a quick match.
func (m *Model) updateQuick(msg tea.Msg) tea.Cmd {
	q := m.quick
	switch msg := msg.(type) {
	case quickFoundMsg:
		if msg.ticket != q.ticket {
			return nil
		}
		m.quick = nil
		m.conn.setTicket(nil)
		if msg.code == "" {
			m.lobby.fail("The quick match was called off.")
			return nil
		}
		return m.open(Start{Mode: ModeJoin, Code: msg.code})
	case quickTickMsg:
		if msg.ticket != q.ticket {
			return nil
		}
		return quickTick(q.ticket)
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, q.stop):
			m.quick = nil
			m.conn.setTicket(nil)
			m.lobby.page = pageMenu
			return nil
		case key.Matches(msg, q.bot):
			m.quick = nil
			m.conn.setTicket(nil)
			opts, _ := q.game.Resolve(nil)
			return m.open(Start{Mode: ModeNew, Game: q.game.ID, Options: opts, Seats: 2, Bots: 1,
				BotLevel: defaultBot(q.game)})
		}
	}
	return nil
}

// view draws the wait.
func (q *quickScreen) view(st draw.Styles, helped *helpCache, w, h int) string {
	waited := time.Since(q.ticket.Since()).Truncate(time.Second)
	lines := []string{
		st.Title.Render("ARCADE") + st.Dim.Render("  quick match"), "",
		"  " + st.Bold.Render(q.game.Name), "",
		fmt.Sprintf("  Looking for an opponent… %d:%02d", int(waited.Minutes()), int(waited.Seconds())%60),
		st.Dim.Render("  Players are paired by rating, the closest first."),
	}
	help := []key.Binding{q.stop}
	if waited >= q.wait {
		lines = append(lines, "", "  Nobody yet. Press "+st.Bold.Render("b")+" to play "+
			botTitle(q.game)+" now, or keep waiting.")
		help = []key.Binding{q.bot, q.stop}
	}
	out := block(lines, w, h-1)
	out = append(out, helped.line(st, w, help))
	return strings.Join(out, "\n")
}

// botTitle names the bot a quick match offers: "a greedy bot".
func botTitle(g rules.Game) string {
	if lv := defaultBot(g); lv != "" {
		return "a " + lv + " bot"
	}
	return "a bot"
}
