package metrics

import (
	"bytes"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"
)

// RegisterProcess adds the usual figures of the process itself, under their customary names:
// process_cpu_seconds_total and process_resident_memory_bytes (from /proc/self, so on Linux only),
// process_start_time_seconds, go_goroutines, go_heap_bytes (memory in live and not yet swept
// heap objects) and go_stack_bytes (the goroutines' stacks); and counters of goroutines created and of the garbage collector's cycles and CPU
// time (go_goroutines_created_total, go_gc_cycles_total, go_gc_cpu_seconds_total and
// go_gc_assist_cpu_seconds_total).
func RegisterProcess(r *Registry) {
	if _, err := os.Stat("/proc/self/stat"); err == nil {
		r.CounterFunc("process_cpu_seconds_total", "User and system CPU time spent, in seconds.", func() float64 {
			return procCPU()
		})
		r.GaugeFunc("process_resident_memory_bytes", "Resident memory size, in bytes.", func() float64 {
			return procRSS()
		})
	}
	start := float64(time.Now().UnixNano()) / 1e9
	r.GaugeFunc("process_start_time_seconds", "Start time of the process since the Unix epoch, in seconds.", func() float64 {
		return start
	})
	r.GaugeFunc("go_goroutines", "Number of goroutines that currently exist.", func() float64 {
		return float64(runtime.NumGoroutine())
	})
	r.GaugeFunc("go_heap_bytes", "Bytes of memory in heap objects, live or not yet swept.", func() float64 {
		return runtimeMetric("/memory/classes/heap/objects:bytes")
	})
	r.GaugeFunc("go_stack_bytes", "Bytes of memory in goroutine stacks.", func() float64 {
		return runtimeMetric("/memory/classes/heap/stacks:bytes")
	})
	r.CounterFunc("go_goroutines_created_total", "Goroutines created since the process started.", func() float64 {
		return runtimeMetric("/sched/goroutines-created:goroutines")
	})
	r.CounterFunc("go_gc_cycles_total", "Garbage collections completed.", func() float64 {
		return runtimeMetric("/gc/cycles/total:gc-cycles")
	})
	r.CounterFunc("go_gc_cpu_seconds_total", "CPU time spent collecting garbage, in seconds (the runtime's estimate, brought up to date at the end of each collection).", func() float64 {
		return runtimeMetric("/cpu/classes/gc/total:cpu-seconds")
	})
	r.CounterFunc("go_gc_assist_cpu_seconds_total", "Of go_gc_cpu_seconds_total, the time goroutines spent marking when they allocated during a collection (assists), in seconds.", func() float64 {
		return runtimeMetric("/cpu/classes/gc/mark/assist:cpu-seconds")
	})
}

// runtimeMetric reads one of the Go runtime's metrics (package runtime/metrics) as a float; a
// metric this runtime does not have reads 0.
func runtimeMetric(name string) float64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	switch s[0].Value.Kind() {
	case metrics.KindUint64:
		return float64(s[0].Value.Uint64())
	case metrics.KindFloat64:
		return s[0].Value.Float64()
	}
	return 0
}

// userHZ is the unit of the times in /proc/self/stat.
const userHZ = 100

func procCPU() float64 {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) / userHZ
}

func procRSS() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(v)
			if len(f) > 0 {
				kb, _ := strconv.ParseFloat(f[0], 64)
				return kb * 1024
			}
		}
	}
	return 0
}
