package server

import "testing"

// TestCompareStates: sessions and room players must be back exactly; goroutines and the live heap
// may exceed the baseline by what the rooms opened in between hold, and a little.
func TestCompareStates(t *testing.T) {
	tol := Tolerances{Goroutines: 5, FDs: 2, Heap: 1 << 20, HeapPerRoom: 10 << 10}
	base := State{Sessions: 0, Subscribers: 0, Rooms: 1, Goroutines: 10, FDs: 15, Threads: 8, RSS: 20 << 20, Heap: 2 << 20}
	back := base
	back.Rooms, back.Goroutines, back.FDs, back.Heap = 101, 10+100+5, 17, 2<<20+100*10<<10+1<<20
	back.RSS = 90 << 20 // not judged: Go returns freed memory to the system over minutes
	if cs := CompareStates(base, back, tol); !AllOK(cs) || len(cs) != 5 {
		t.Errorf("back at the baseline, judged: %v", cs)
	}
	for name, change := range map[string]func(*State){
		"a session left":          func(s *State) { s.Sessions = 1 },
		"a player in a room":      func(s *State) { s.Subscribers = 1 },
		"goroutines":              func(s *State) { s.Goroutines++ },
		"an open file":            func(s *State) { s.FDs++ },
		"heap":                    func(s *State) { s.Heap++ },
		"rooms closed, heap kept": func(s *State) { s.Rooms = 1 },
	} {
		after := back
		change(&after)
		cs := CompareStates(base, after, tol)
		bad := 0
		for _, c := range cs {
			if !c.OK {
				bad++
			}
		}
		if AllOK(cs) || bad == 0 {
			t.Errorf("%s: judged back at the baseline: %v", name, cs)
		}
	}
	// Figures that could not be read are not compared; nothing compared is no verdict.
	unknown := State{Sessions: -1, Subscribers: -1, Rooms: -1, Goroutines: -1, FDs: -1, Heap: -1}
	if cs := CompareStates(unknown, back, tol); len(cs) != 0 || AllOK(cs) {
		t.Errorf("unknown baseline: %v", cs)
	}
	noHeap := back
	noHeap.Heap = -1
	if cs := CompareStates(base, noHeap, tol); len(cs) != 4 || !AllOK(cs) {
		t.Errorf("no heap read: %v", cs)
	}
}
