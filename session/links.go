package session

// WebLinks makes the links to the web companion (package web) that screens print: its address
// as players reach it (Config.PublicURL, "https://arcade.example.com"), or "" for none, when
// every link is "". Screens print them as plain text, which terminals link by themselves: the
// renderer (teaframe) draws a view's text and SGR styles only, so an OSC 8 hyperlink cannot be
// part of a screen; plain-text commands (`rooms`) write OSC 8 where the terminal takes it
// (package sshd).
type WebLinks string

// Room is the link of a live room's page.
func (l WebLinks) Room(code string) string {
	if l == "" || code == "" {
		return ""
	}
	return string(l) + "/r/" + code
}

// Match is the link of a finished match's page.
func (l WebLinks) Match(id string) string {
	if l == "" || id == "" {
		return ""
	}
	return string(l) + "/m/" + id
}

// Home is the link of the front page.
func (l WebLinks) Home() string {
	if l == "" {
		return ""
	}
	return string(l) + "/"
}
