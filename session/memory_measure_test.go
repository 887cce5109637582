//go:build measure

package session

import (
	"flag"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"testing"

	"github.com/arcade/arcade/rooms"
)

var heapProfile = flag.String("heapprofile", "", "TestMeasureSessionMemory writes the heap profile of its sessions here")

// TestMeasureSessionMemory logs what a playing session holds in this package, teaframe and Bubble
// Tea (no SSH: BenchmarkMovePath's programs, drawn into io.Discard): the live heap and the
// goroutines' stacks per session, after a full collection, with 100 rooms of two players that
// have played 20 moves each. It asserts nothing about the figures; run it with
//
//	go test -tags measure -run MeasureSessionMemory -v ./session [-args -heapprofile FILE]
func TestMeasureSessionMemory(t *testing.T) {
	const roomsOpen, moves = 100, 20
	if *heapProfile != "" {
		runtime.MemProfileRate = 1 // every allocation, not a sample
	}
	hub := rooms.NewHub(rooms.Config{Games: testGames, BotDelay: -1, Logf: func(string, ...any) {},
		NewSeed: func(string, int) uint64 { return 1 }, MaxRooms: roomsOpen})
	defer hub.Shutdown("measure over")
	before := readMemory()
	var open []*playedRoom
	for i := range roomsOpen {
		pr := openPlayRoom(t, hub, "r"+strconv.Itoa(i)+"p", 0, false)
		defer pr.close()
		open = append(open, pr)
	}
	for _, pr := range open {
		pr.play(moves)
	}
	settle()
	after := readMemory()
	sessions := float64(2 * roomsOpen)
	t.Logf("per playing session (%d rooms of two, %d moves each): live heap %.1f KiB, stacks %.1f KiB, %.1f goroutines",
		roomsOpen, moves, float64(after.heap-before.heap)/sessions/1024, float64(after.stacks-before.stacks)/sessions/1024,
		float64(after.goroutines-before.goroutines)/sessions)
	if *heapProfile != "" {
		f, err := os.Create(*heapProfile)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
			t.Fatal(err)
		}
	}
	runtime.KeepAlive(open)
}

// memory is the live heap, the goroutines' stacks and the goroutines, after a full collection.
type memory struct{ heap, stacks, goroutines uint64 }

func readMemory() memory {
	runtime.GC()
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/stacks:bytes"},
		{Name: "/sched/goroutines:goroutines"}}
	metrics.Read(s)
	return memory{s[0].Value.Uint64(), s[1].Value.Uint64(), s[2].Value.Uint64()}
}
