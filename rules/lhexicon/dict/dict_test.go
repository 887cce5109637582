package dict

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

func TestEmbeddedList(t *testing.T) {
	d := Words()
	if d.Len() != 274137 {
		t.Errorf("the embedded list has %d words; word-list 4.1.0 has 274137 of 2 letters or more", d.Len())
	}
	if Words() != d {
		t.Error("Words built the dictionary twice")
	}
	for _, w := range []string{"cruel", "coded", "leveled", "coddle", "pleaded", "quiz", "qat", "aa", "zyzzyva"} {
		if !d.Contains(w) {
			t.Errorf("%q should be a word", w)
		}
	}
	for _, w := range []string{"", "a", "crul", "codedx", "Cruel", "levelled-", "xq"} {
		if d.Contains(w) {
			t.Errorf("%q should not be a word", w)
		}
	}
}

func TestNext(t *testing.T) {
	d := Words()
	n, ok := d.Walk(d.Root(), "qu")
	if !ok {
		t.Fatal("no word starts with qu")
	}
	if d.IsWord(n) {
		t.Error(`"qu" is not a word`)
	}
	next := d.Next(n)
	for _, c := range "aeio" {
		if next&(1<<(c-'a')) == 0 {
			t.Errorf("some qu%c... word should exist", c)
		}
	}
	if _, ok := d.Walk(d.Root(), "qx"); ok {
		t.Error("no word starts with qx")
	}
	// Next agrees with Child for every letter.
	for c := byte('a'); c <= 'z'; c++ {
		_, ok := d.Child(n, c)
		if ok != (next&(1<<(c-'a')) != 0) {
			t.Errorf("Next and Child disagree on qu%c", c)
		}
	}
}

// TestMinimal builds a small list and checks every word and non-word, and that shared suffixes are
// stored once.
func TestMinimal(t *testing.T) {
	words := []string{"cat", "cats", "dog", "dogs", "rat", "rats"}
	d := mustLoad(t, words)
	for _, w := range words {
		if !d.Contains(w) {
			t.Errorf("%q missing", w)
		}
	}
	for _, w := range []string{"ca", "cas", "catss", "do", "ratsa", "s"} {
		if d.Contains(w) {
			t.Errorf("%q should not be a word", w)
		}
	}
	// A block holds children by (mask, base) only, their letters being in the parent's mask, so
	// c and r share the block [a], and "ca", "ra" and "do" share [t]/[g] (a word, then s): root +
	// [c d r] + [a] + [o] + [t or g] + [s] = 8 nodes.
	if d.Nodes() != 8 {
		t.Errorf("%d nodes, want 8 for a minimal graph", d.Nodes())
	}
}

func TestLongest(t *testing.T) {
	d := mustLoad(t, []string{"cat", "cats", "catsup", "dog"})
	for p, want := range map[string]int{"": 6, "c": 5, "cat": 3, "cats": 2, "catsup": 0, "do": 1} {
		n, ok := d.Walk(d.Root(), p)
		if !ok || d.Longest(n) != want {
			t.Errorf("Longest(%q) = %d, want %d", p, d.Longest(n), want)
		}
	}
}

func TestLoadRejects(t *testing.T) {
	for _, words := range [][]string{{"b", "a"}, {"a", "a"}, {"ab", "a"}, {"aB"}, {"a b"}} {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write([]byte(strings.Join(words, "\n")))
		zw.Close()
		if _, err := Load(&buf); err == nil {
			t.Errorf("%q loaded", words)
		}
	}
	if _, err := Load(strings.NewReader("not gzip")); err == nil {
		t.Error("plain text loaded")
	}
}

func mustLoad(t *testing.T, words []string) *Dict {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(strings.Join(words, "\n") + "\n"))
	zw.Close()
	d, err := Load(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// BenchmarkLoad builds the dictionary from the embedded list, as the first Words call does.
func BenchmarkLoad(b *testing.B) {
	var d *Dict
	cpu0 := cpuTime()
	for b.Loop() {
		var err error
		if d, err = Load(bytes.NewReader(wordsGz)); err != nil {
			b.Fatal(err)
		}
	}
	// CPU time is the figure to compare with the target on a shared machine, where the wall time
	// includes waiting for a core.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "ms-cpu/op")
	b.ReportMetric(float64(d.Nodes()), "nodes")
	b.ReportMetric(float64(8*d.Nodes())/(1<<20), "MiB-graph")
}

// BenchmarkContains looks up a word and a non-word.
func BenchmarkContains(b *testing.B) {
	d := Words()
	for b.Loop() {
		if !d.Contains("leveled") || d.Contains("leveledx") {
			b.Fatal("wrong answer")
		}
	}
}

// BenchmarkResident starts a fresh process of this test binary that loads the dictionary, and
// reports its resident memory then (VmRSS, after a collection) and at its peak (VmHWM), and the
// resident memory of the same process without the dictionary.
func BenchmarkResident(b *testing.B) {
	var with, peak, without float64
	for b.Loop() {
		with, peak = rss(b, "1")
		without, _ = rss(b, "0")
	}
	b.ReportMetric(with, "MiB-RSS")
	b.ReportMetric(peak, "MiB-peak")
	b.ReportMetric(without, "MiB-RSS-bare")
}

// cpuTime returns the CPU time used by the process so far (user and system), in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func rss(b *testing.B, load string) (now, peak float64) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestResidentHelper$")
	cmd.Env = append(os.Environ(), "LHEXICON_RSS="+load)
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("helper: %v", err)
	}
	var kbNow, kbPeak float64
	if _, err := fmt.Sscanf(string(out), "rss %f %f", &kbNow, &kbPeak); err != nil {
		b.Fatalf("helper said %q: %v", out, err)
	}
	return kbNow / 1024, kbPeak / 1024
}

// TestResidentHelper is BenchmarkResident's child process; it does nothing in an ordinary run.
func TestResidentHelper(t *testing.T) {
	load := os.Getenv("LHEXICON_RSS")
	if load == "" {
		t.Skip("only run by BenchmarkResident")
	}
	if load == "1" {
		Words()
	}
	runtime.GC()
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip(err)
	}
	var now, peak string
	for _, l := range strings.Split(string(status), "\n") {
		f := strings.Fields(l)
		if len(f) >= 2 && f[0] == "VmRSS:" {
			now = f[1]
		}
		if len(f) >= 2 && f[0] == "VmHWM:" {
			peak = f[1]
		}
	}
	fmt.Printf("rss %s %s\n", now, peak)
}
