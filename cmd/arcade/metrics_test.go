package main

import (
	"errors"
	"testing"

	"github.com/arcade/arcade/rooms"
)

type endRecorder struct{ ends int }

func (r *endRecorder) Record(string, rooms.Event) error { return nil }

func (r *endRecorder) RecordEnd(string, rooms.Event) (rooms.EndResult, error) {
	r.ends++
	return rooms.EndResult{MatchID: "m1"}, errors.New("disk full")
}

type plainRecorder struct{}

func (plainRecorder) Record(string, rooms.Event) error { return nil }

// TestTimedRecorderKeepsTheEnd: with --metrics, the recorder the rooms get still records a match's
// end through RecordEnd (so the room shows its result and ID), and counts its failure; a recorder
// without RecordEnd does not gain one.
func TestTimedRecorderKeepsTheEnd(t *testing.T) {
	m := newServerMetrics()
	inner := &endRecorder{}
	end, ok := m.recorder(inner).(rooms.EndRecorder)
	if !ok {
		t.Fatal("the timed recorder of an EndRecorder is not an EndRecorder")
	}
	res, err := end.RecordEnd("ABCDE", rooms.Event{Kind: rooms.EventEnd})
	if inner.ends != 1 || res.MatchID != "m1" || err == nil {
		t.Errorf("RecordEnd: %d calls, %+v, %v", inner.ends, res, err)
	}
	if n := m.errs.With("record").Value(); n != 1 {
		t.Errorf("%d record errors counted, want 1", n)
	}
	if _, ok := m.recorder(plainRecorder{}).(rooms.EndRecorder); ok {
		t.Error("a recorder without RecordEnd became an EndRecorder")
	}
}
