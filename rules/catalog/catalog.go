// Package catalog lists the games the arcade serves, in the order the lobby shows them.
package catalog

import (
	"github.com/arcade/arcade/rules"
	"github.com/arcade/arcade/rules/coloretta"
	"github.com/arcade/arcade/rules/discon"
	"github.com/arcade/arcade/rules/stonetowers"
)

// Games returns every playable game. The slice is new on each call.
func Games() []rules.Game {
	return []rules.Game{
		stonetowers.Game,
		discon.Game,
		coloretta.Game,
	}
}
