package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Options are a room's game options as key=value text, e.g. {"size": "12"}.
type Options map[string]string

// Option describes one room option of a game.
type Option struct {
	// Key is the option's name on the command line, e.g. "size".
	Key string
	// Help says what it does in a few words.
	Help string
	// Default is the value a room gets when its creator sets nothing.
	Default string
	// Min and Max bound an integer option. Both zero means the option is not an integer.
	Min, Max int
	// Unit, for an integer option, is a suffix its values may carry ("s" for seconds, "%"):
	// "20s" is 20. Resolve keeps the number alone.
	Unit string
	// Choices lists the allowed values of a non-integer option.
	Choices []string
	// GuestMax, when above zero, is the most an integer option may be in a room a guest (a
	// player without a key) creates: a guest's match, and so its record and its replays, stays
	// of a sane length. See Game.CheckGuest.
	GuestMax int
	// Standard lists the values a rated room may give the option, as Resolve keeps them (an
	// integer's without its unit); nil means the default alone. A room with any other value is
	// casual: its matches change no rating (Game.NonStandard).
	Standard []string
}

// IsInt reports whether the option takes an integer.
func (o Option) IsInt() bool { return o.Min != 0 || o.Max != 0 }

// Check returns an error in plain words when v is not an allowed value of the option.
func (o Option) Check(v string) error {
	if o.IsInt() {
		n, err := strconv.Atoi(o.number(v))
		if err != nil || n < o.Min || n > o.Max {
			return fmt.Errorf("%s must be a whole number from %d to %d%s", o.Key, o.Min, o.Max, o.Unit)
		}
		return nil
	}
	if !slices.Contains(o.Choices, v) {
		return fmt.Errorf("%s must be one of %s", o.Key, strings.Join(o.Choices, ", "))
	}
	return nil
}

// number is an integer option's value without its unit: "20s" is "20".
func (o Option) number(v string) string {
	if o.Unit != "" {
		return strings.TrimSuffix(strings.ToLower(v), o.Unit)
	}
	return v
}

// Resolve checks the given options against the game's and returns a complete set, defaults filled
// in. An unknown key or a bad value is an error in plain words.
func (g Game) Resolve(given Options) (Options, error) {
	out := Options{}
	for _, o := range g.Options {
		out[o.Key] = o.Default
	}
	keys := make([]string, 0, len(given))
	for k := range given {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		i := slices.IndexFunc(g.Options, func(o Option) bool { return o.Key == k })
		if i < 0 {
			return nil, fmt.Errorf("%s has no option %q", g.Name, k)
		}
		o := g.Options[i]
		if err := o.Check(given[k]); err != nil {
			return nil, err
		}
		out[k] = given[k]
		if o.IsInt() {
			out[k] = o.number(given[k]) // "20s" is kept as 20
		}
	}
	return out, nil
}

// CheckGuest returns an error in plain words when opts, resolved (Resolve), set an option beyond
// what a guest's room may (Option.GuestMax); nil when every option is within.
func (g Game) CheckGuest(opts Options) error {
	for _, o := range g.Options {
		if o.GuestMax <= 0 || !o.IsInt() {
			continue
		}
		if n, err := strconv.Atoi(o.number(opts[o.Key])); err == nil && n > o.GuestMax {
			return fmt.Errorf("%s must be at most %d%s in a guest's room (with an SSH key, up to %d%s)",
				o.Key, o.GuestMax, o.Unit, o.Max, o.Unit)
		}
	}
	return nil
}

// IsStandard reports whether v, a value Resolve kept, is a standard value of the option
// (Option.Standard): one a rated room may have. An integer is compared as a number, so "020" and
// "20s" are 20.
func (o Option) IsStandard(v string) bool {
	std := o.Standard
	if std == nil {
		std = []string{o.Default}
	}
	if !o.IsInt() {
		return slices.Contains(std, v)
	}
	n, err := strconv.Atoi(o.number(v))
	return err == nil && slices.ContainsFunc(std, func(s string) bool {
		m, err := strconv.Atoi(o.number(s))
		return err == nil && m == n
	})
}

// StandardText writes the option's standard values as a player types them: "11", "4, 5 or 6",
// "20s".
func (o Option) StandardText() string {
	std := o.Standard
	if std == nil {
		std = []string{o.Default}
	}
	out := make([]string, len(std))
	for i, v := range std {
		out[i] = v
		if o.IsInt() {
			out[i] = o.number(v) + o.Unit
		}
	}
	if len(out) == 1 {
		return out[0]
	}
	return strings.Join(out[:len(out)-1], ", ") + " or " + out[len(out)-1]
}

// NonStandard returns the options of opts, resolved (Resolve), whose values are not standard
// (Option.Standard), as "key=value" in the game's order of its options: a room with any is
// casual, and its matches change no rating. Nil when every option is standard. Keys the game
// does not have (a room's own, such as its clock) are not the game's to judge and are left out.
func (g Game) NonStandard(opts Options) []string {
	var out []string
	for _, o := range g.Options {
		v, ok := opts[o.Key]
		if !ok {
			v = o.Default
		}
		if !o.IsStandard(v) {
			if o.IsInt() {
				v = o.number(v) + o.Unit
			}
			out = append(out, o.Key+"="+v)
		}
	}
	return out
}

// Int returns the integer value of key, or def when it is missing or not a number.
func (o Options) Int(key string, def int) int {
	n, err := strconv.Atoi(o[key])
	if err != nil {
		return def
	}
	return n
}

// String returns the value of key, or def when it is missing.
func (o Options) String(key, def string) string {
	if v, ok := o[key]; ok {
		return v
	}
	return def
}
