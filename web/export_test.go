package web

// StoredForTest and DeflatedForTest are stored and deflated, for the tests of package web_test.
var (
	StoredForTest   = stored
	DeflatedForTest = deflated
)
