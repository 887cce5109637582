package session

import (
	"flag"
	"os"
	"strconv"
	"testing"
)

// fuzzParallel is how many tests of the package run at once when -test.parallel is not given:
// FuzzScreens' seeds (which call t.Parallel) mostly wait, for the commands of a session that
// answer only when a timer fires, not compute, so more of them than the machine has cores
// overlap their waits.
const fuzzParallel = 8

func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		if err := flag.Set("test.parallel", strconv.Itoa(fuzzParallel)); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
